// This file sizes the buffer in front of each etcd watch stream.
//
// etcd queues the responses of a watch stream in a channel of 128 (mvcc's
// chanBufLen) until the gRPC layer takes them (or, for the embedded member,
// the store's own reader: watchMember in watch.go). When that channel is full the
// watcher becomes a "victim" and then "unsynced": etcd stops handing it
// events from memory and instead reads them back from its database, at most
// 1,000 revisions every 100 ms, reading the whole backlog again each time.
// Behind a real network the gRPC transport and the sockets add megabytes of
// slack in front of that channel; in process there is none, so on a busy machine (every component sharing two cores) the
// apiserver's one watch of /registry/ fell behind on every burst and stayed
// there: at 1,000 nodes, re-reading the backlog was 13% of everything the
// process allocated, and the watch cache ran thousands of revisions late.
// kubesim gives the channel the slack a network would: watchStreamBuffer.
//
// etcd declares the size a variable "so modifiable by tests"; it has no
// option for it, so kubesim sets it through the linker before any member
// starts. A version of etcd without it fails the build, not the run.

package store

import _ "unsafe" // go:linkname

//go:linkname etcdChanBufLen go.etcd.io/etcd/server/v3/storage/mvcc.chanBufLen
var etcdChanBufLen int

// watchStreamBuffer is how many responses each etcd watch stream holds
// before etcd counts its watcher as slow.
const watchStreamBuffer = 16384

func init() { etcdChanBufLen = watchStreamBuffer }
