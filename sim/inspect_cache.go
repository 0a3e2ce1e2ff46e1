// inspect_cache.go: the prompt's cache command, a component's informer cache beside etcd. A
// component never reads etcd: it reads its own cache, filled by a watch, and acts on what the cache
// says. In step mode every cache catches up between units of work, but a breakpoint stops in the
// middle of one (the ReplicaSet controller has created one of its three pods): there the scheduler's
// cache lags etcd, which is what client-go's caches do all the time in a real cluster.
//
//	cache                          every component's informers: resource, resourceVersion, size
//	cache COMPONENT                one component's informers (scheduler, kubelet/node-1, replicaset, ...)
//	cache COMPONENT RESOURCE       each object as the cache holds it beside etcd's copy
package sim

import (
	"context"
	"fmt"
	"io"
	"maps"
	"slices"
	"strings"
	"text/tabwriter"

	"kubesim/api"
	"kubesim/client"
)

// inspectCache runs `cache [COMPONENT [RESOURCE]]`.
func (c *Cluster) inspectCache(ctx context.Context, w io.Writer, args []string) error {
	rev, err := c.Ledger().CurrentRevision(ctx)
	if err != nil {
		return err
	}
	var names []string // the components that have a cache
	for _, name := range slices.Sorted(maps.Keys(c.components)) {
		if len(c.components[name].Informers()) > 0 {
			names = append(names, name)
		}
	}
	if len(args) > 0 {
		name, err := componentNamed(args[0], names)
		if err != nil {
			return err
		}
		names = []string{name}
	}
	if len(args) < 2 {
		fmt.Fprintf(w, "etcd is at revision %d; each informer's resource, resourceVersion and number of objects:\n", rev)
		for _, name := range names {
			var infs []string
			for _, inf := range c.components[name].Informers() {
				v := inf.View()
				infs = append(infs, fmt.Sprintf("%s %s (%d)", v.Resource, v.ResourceVersion, len(v.Objects)))
			}
			fmt.Fprintf(w, "  %-27s %s\n", name, strings.Join(infs, ", "))
		}
		return nil
	}
	res, ok := api.ResourceFor(args[1])
	if !ok {
		return fmt.Errorf("the server doesn't have a resource type %q", args[1])
	}
	var views []client.CacheView
	for _, inf := range c.components[names[0]].Informers() {
		if v := inf.View(); v.Resource == res.Name {
			views = append(views, v)
		}
	}
	if len(views) == 0 {
		return fmt.Errorf("%s has no informer for %s (cache %s lists its informers)", names[0], res.Name, args[0])
	}
	prefix := "/registry/" + res.Name + "/"
	kvs, _, err := c.Ledger().List(ctx, prefix, 0)
	if err != nil {
		return err
	}
	inEtcd := map[string]int64{} // key as the cache keys it -> mod_revision
	for _, kv := range kvs {
		inEtcd[strings.TrimPrefix(kv.Key, prefix)] = kv.ModRevision
	}
	for _, v := range views {
		writeCacheView(w, v, rev, inEtcd)
	}
	return nil
}

// componentNamed finds the component with a cache a learner means: its exact name, or the only one
// whose name contains the word (scheduler: kube-scheduler; node-2: kubelet/node-2).
func componentNamed(word string, names []string) (string, error) {
	var found []string
	for _, n := range names {
		if n == word {
			return n, nil
		}
		if strings.Contains(n, word) {
			found = append(found, n)
		}
	}
	switch len(found) {
	case 1:
		return found[0], nil
	case 0:
		return "", fmt.Errorf("no component %q; there are: %s", word, strings.Join(names, ", "))
	}
	return "", fmt.Errorf("%q names %d components: %s", word, len(found), strings.Join(found, ", "))
}

// writeCacheView prints one informer's objects beside etcd's: the resourceVersion each copy has, and
// what the cache has not seen yet (a newer write, an object created or deleted since).
func writeCacheView(w io.Writer, v client.CacheView, rev int64, inEtcd map[string]int64) {
	fmt.Fprintf(w, "%s informer: %d objects, resourceVersion %s (etcd is at revision %d)\n", v.Name, len(v.Objects), v.ResourceVersion, rev)
	if v.Selection != "" {
		fmt.Fprintf(w, "it watches only %s: what it filters out is not listed\n", v.Selection)
	}
	tw := tabwriter.NewWriter(w, 0, 8, 2, ' ', 0)
	defer tw.Flush()
	fmt.Fprintln(tw, "NAME\tIN CACHE\tIN ETCD\t")
	cached := map[string]bool{}
	for _, o := range v.Objects {
		m := o.GetObjectMeta()
		key := m.Name
		if m.Namespace != "" {
			key = m.Namespace + "/" + m.Name
		}
		cached[key] = true
		etcdRV, ok := inEtcd[key]
		note := ""
		switch {
		case !ok:
			note = "deleted in etcd; the cache has not seen it yet"
		case fmt.Sprint(etcdRV) != m.ResourceVersion:
			note = "the cache is behind"
		}
		fmt.Fprintf(tw, "%s\t%s\t%s\t%s\n", key, m.ResourceVersion, etcdOrNone(etcdRV, ok), note)
	}
	for _, key := range slices.Sorted(maps.Keys(inEtcd)) {
		if !cached[key] && v.Selection == "" {
			fmt.Fprintf(tw, "%s\t-\t%d\t%s\n", key, inEtcd[key], "not in the cache yet")
		}
	}
}

func etcdOrNone(rev int64, ok bool) string {
	if !ok {
		return "-"
	}
	return fmt.Sprint(rev)
}
