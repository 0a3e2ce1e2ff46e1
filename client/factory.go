// factory.go: the InformerFactory (client-go's SharedInformerFactory). Informers are expensive: each
// one holds a watch on the apiserver and a copy of every object it caches. A process that runs many
// controllers, like kube-controller-manager, therefore opens one informer per resource and lets every
// controller attach its handlers and indexers to it.
//
//	NewInformerFactory(c, clock, trace) *InformerFactory
//	InformerFor[T](f, opts) *Informer[T]   the factory's informer for T with these options (made once)
//	f.Informers()                          every informer made so far, in the order they were made
//
// The factory only makes informers; whoever runs the components syncs each informer once and then
// pumps it (step mode) or runs it (real time), see Component. Handlers of several controllers on one
// informer run in the order they were added, and informers are pumped in the order they were made,
// so in step mode the order of events every controller sees is still fixed by construction.
package client

import (
	"sync"

	"kubesim/clock"
	"kubesim/trace"
)

// InformerFactory hands out one shared informer per resource and options.
type InformerFactory struct {
	client *Client
	clock  clock.Clock
	trace  *trace.Recorder

	// mu guards informers and order. A key is in informers iff its informer is in order.
	mu        sync.Mutex
	informers map[factoryKey]InformerHandle
	order     []InformerHandle
}

// factoryKey is what makes two informers the same: the resource and what of it they list.
type factoryKey struct {
	resource string
	FactoryOptions
}

// FactoryOptions narrow a shared informer to a namespace or a selection; the zero value watches the
// whole resource.
type FactoryOptions struct {
	Namespace     string
	LabelSelector string
	FieldSelector string
}

// NewInformerFactory returns a factory whose informers list and watch through c (and so under its
// identity), on clk, recording in tr.
func NewInformerFactory(c *Client, clk clock.Clock, tr *trace.Recorder) *InformerFactory {
	return &InformerFactory{client: c, clock: clk, trace: tr,
		informers: map[factoryKey]InformerHandle{}}
}

// InformerFor returns f's informer for T with these options, making it on first use. Every caller
// gets the same informer: add handlers and indexers to it, never stop it.
func InformerFor[T any, PT ObjectPtr[T]](f *InformerFactory, o FactoryOptions) *Informer[T, PT] {
	res := For[T, PT](f.client).Info()
	key := factoryKey{res.Name, o}
	f.mu.Lock()
	defer f.mu.Unlock()
	if inf, ok := f.informers[key]; ok {
		return inf.(*Informer[T, PT])
	}
	name := f.client.agent + " " + res.Name
	if o.Namespace != "" {
		name += " in " + o.Namespace
	}
	inf := NewInformer[T, PT](f.client, InformerOptions{Namespace: o.Namespace, Clock: f.clock, Trace: f.trace, Name: name,
		List: ListOptions{LabelSelector: o.LabelSelector, FieldSelector: o.FieldSelector}})
	f.informers[key] = inf
	f.order = append(f.order, inf)
	return inf
}

// Informers returns every informer the factory has made, in the order they were first asked for.
func (f *InformerFactory) Informers() []InformerHandle {
	f.mu.Lock()
	defer f.mu.Unlock()
	return append([]InformerHandle(nil), f.order...)
}
