package hookevent

import (
	"encoding/hex"
	"hash/fnv"
	"strings"
)

// maxIdentity bounds an identity taken as the client wrote it (ids are
// about 30 characters); a longer or odd one is hashed.
const maxIdentity = 40

// Identity names the tool call the event reports, the same in every hook
// process that receives it: a hook registered twice (project settings and
// user settings, or a plugin) runs twice for one call, and both runs must
// be able to tell they saw one call. It is the client's tool_use_id
// (Claude Code from 2.0.43; Codex's call id) when that is a plain token,
// else a hash of the session id and what the tool returned — clients that
// send no call id (mid-2025 Claude Code) still repeat the session and the
// output byte for byte to every hook, while a reviewer run again writes
// another output. "" when the payload has neither id: nothing tells two
// calls apart, so each counts.
//
// It is read from the raw payload on demand, so the events that are no
// review never pay for it.
func (p *Payload) Identity() string {
	var useID, session string
	_ = members(p.raw, func(key string, val []byte) error {
		switch strings.ToLower(key) {
		case "tool_use_id":
			return decodeField(val, &useID)
		case "session_id":
			return decodeField(val, &session)
		}
		return nil
	})
	if PlainToken(useID, maxIdentity) {
		return useID
	}
	if useID == "" && session == "" {
		return ""
	}
	h := fnv.New64a()
	for _, part := range [][]byte{[]byte(useID), []byte(session), p.ToolResponse, p.Error} {
		h.Write(part)
		h.Write([]byte{0})
	}
	return "h-" + hex.EncodeToString(h.Sum(nil))
}

// PlainToken: 1 to n letters, digits, '_', '-' and '.', which need no
// escaping in JSON, a log line or a shell command.
func PlainToken(s string, n int) bool {
	if s == "" || len(s) > n {
		return false
	}
	for _, c := range []byte(s) {
		if !(c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9' || c == '-' || c == '_' || c == '.') {
			return false
		}
	}
	return true
}
