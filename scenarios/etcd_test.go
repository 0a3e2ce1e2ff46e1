package scenarios_test

import "testing"

func TestEtcdSnapshotBringsTheNamespaceBackUnderTheRunningCluster(t *testing.T) {
	expectSigns(t, "etcd-snapshot",
		"etcdctl snapshot save: the whole keyspace at revision 92",
		"etcd holds none of the 21 keys of namespace shop",
		"kube-apiserver stopped: every component's requests fail and its watches end",
		"etcdutl snapshot restore --bump-revision 69 --mark-compacted",
		"now at revision 161, past the 160 every client has seen",
		"the restored etcd holds namespace shop and all its 21 keys, byte for byte as at the snapshot",
		"relist: kube-controller-manager namespaces: watch from resourceVersion 160 answered 410 Gone",
		"sync: RunPodSandbox for shop/web-74d9d68c4d-qkldg",
		"the 2 pods of web run again under the names they had at the snapshot")
}

func TestEtcdQuorumTellsTheTermOfEachElection(t *testing.T) {
	for _, name := range []string{"etcd-quorum", "etcd-quorum-5"} {
		expectSigns(t, name,
			"leader: etcd-0 became leader at term 2",
			"no leader:",
			"election: etcd-0 became leader at term 3 (etcd-0 led term 2)",
			"caught-up: member etcd-")
	}
}

func TestEtcdLeaderLossElectsTheNextMemberAtTheNextTerm(t *testing.T) {
	expectSigns(t, "etcd-leader-loss",
		"stop: member etcd-0 stopped: 2 of 3 members run, a quorum is 2",
		"election: etcd-1 became leader at term 3 (etcd-0 led term 2)")
}
