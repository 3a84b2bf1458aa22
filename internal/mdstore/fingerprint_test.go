package mdstore

import "testing"

// Lessons written in Chinese or Japanese have no spaces between words: a
// whole sentence used to be one token, too long to keep, so two lessons
// that shared only a code name fingerprinted alike and the hook would
// have counted the second as a repeat of the first.
func TestFingerprintUnspacedScript(t *testing.T) {
	expiry := "`cache.Set` 写入缓存条目时没有设置任何过期时间因此内存会一直增长直到进程被系统终止"
	pool := "`cache.Set` 出错返回之前没有把借来的数据库连接放回连接池长时间运行之后连接全部耗尽"
	a, b := Fingerprint(expiry), Fingerprint(pool)
	if a == "" || b == "" {
		t.Fatalf("fingerprints %q, %q: want both set", a, b)
	}
	if a == b {
		t.Errorf("two lessons that share only `cache.Set` fingerprint alike (%s)", a)
	}
	if again := Fingerprint(expiry + "。"); again != a {
		t.Errorf("the same lesson with a closing full stop: %s, want %s", again, a)
	}
}
