// zh.go: the Chinese telling (kubesim run --lang zh) of this package's trace lines, next to the
// format strings they translate (cluster.go). A test in sim fails when a narrated format has no
// entry here.
package store

import "kubesim/trace"

// ZH translates this package's trace formats into Chinese, verb for verb.
var ZH = trace.Catalog{
	"member %s stopped: %d of %d members run, a quorum is %d":                                        "成员 %s 停止了：%d/%d 个成员在运行，法定人数（quorum）是 %d",
	"member %s started again: %d of %d members run, a quorum is %d":                                  "成员 %s 重新启动：%d/%d 个成员在运行，法定人数（quorum）是 %d",
	"member %s is cut off from its peers":                                                            "成员 %s 与其他成员之间的网络被切断",
	"member %s reaches its peers again":                                                              "成员 %s 与其他成员之间的网络恢复",
	"member %s's disk is fast again":                                                                 "成员 %s 的磁盘恢复正常速度",
	"member %s's disk is slow: each fsync takes %s, and so does each of its Raft messages":           "成员 %s 的磁盘变慢：每次 fsync 要 %s，它的每条 Raft 消息也晚到这么久",
	"%s became leader at term %d":                                                                    "%s 在任期（term）%d 成为 leader",
	"election: %s became leader at term %d (%s led term %d)":                                         "选举：%s 在任期 %d 成为 leader（上一任 leader %s 领导任期 %d）",
	"no leader: %d of %d members run and a quorum is %d, so no one can win an election; writes wait": "没有 leader：%d/%d 个成员在运行，而法定人数是 %d，谁也赢不了选举；写入只能等待",
	"member %s is behind the leader %s: the leader sends it the entries it missed":                   "成员 %s 落后于 leader %s：leader 把它错过的日志条目发给它",
	"raft: %s": "raft：%s",
	"member %s has caught up with the leader": "成员 %s 已追上 leader",
}
