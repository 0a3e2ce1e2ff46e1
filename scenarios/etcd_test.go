package scenarios_test

import "testing"

func TestEtcdSnapshotBringsTheNamespaceBackUnderTheRunningCluster(t *testing.T) {
	expectSigns(t, "etcd-snapshot",
		"etcdctl snapshot save: the whole keyspace at revision",
		"keys of namespace shop",
		"kube-apiserver stopped: every component's requests fail and its watches end",
		"--mark-compacted: a new etcd holding the snapshot's data",
		"every client has seen; every older revision reads as compacted",
		"byte for byte as at the snapshot",
		"relist: kube-controller-manager namespaces: watch from resourceVersion",
		"sync: RunPodSandbox for shop/web-",
		"the 2 pods of web run again under the names they had at the snapshot")
}

// The etcd scenarios of more than one member wait on the wall clock: their tests run beside the
// others (t.Parallel), reading the plays TestScenariosTellTheirGoldenStory starts first.

func TestEtcdQuorumTellsTheTermOfEachElection(t *testing.T) {
	t.Parallel()
	for _, name := range []string{"etcd-quorum", "etcd-quorum-5"} {
		expectSigns(t, name,
			"leader: etcd-0 became leader at term 2",
			"no leader:",
			"election: etcd-0 became leader at term 3 (etcd-0 led term 2)",
			"caught-up: member etcd-")
	}
}

func TestEtcdLeaderLossElectsTheNextMemberAtTheNextTerm(t *testing.T) {
	t.Parallel()
	expectSigns(t, "etcd-leader-loss",
		"stop: member etcd-0 stopped: 2 of 3 members run, a quorum is 2",
		"election: etcd-1 became leader at term 3 (etcd-0 led term 2)")
}
