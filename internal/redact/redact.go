// Package redact removes secrets from text before flowmem writes it to disk:
// API keys and tokens of the common providers, private key blocks, JWTs,
// credentials in URLs and on command lines, password-style assignments,
// Authorization headers, tokens that look machine-generated whatever their
// name, and anything the user wrapped in <private>…</private>.
//
// Memory files are committed to git and shared with a team, and reviews
// quote code, logs and configuration freely, so every piece of outside text
// goes through String before it reaches an entry. Redaction errs towards
// removing too much: a lesson with one word masked is still a lesson, a
// leaked key is an incident.
//
// Each rule carries literal keywords, as gitleaks does: a rule's regular
// expression only runs when one of its keywords occurs in the text, so
// clean text (the common case) costs one lower-casing and a few substring
// searches.
package redact

import (
	"regexp"
	"slices"
	"strings"
	"sync"

	"github.com/flowmem/flowmem/internal/sanitize"
)

// Mask is what a redacted secret becomes; the kind follows the colon.
const maskPrefix = "[REDACTED:"

// Private replaces a <private>…</private> block.
const Private = "[PRIVATE]"

// Unmasked returns s, a text masked by String, without its masks: what is
// left of it once its secrets and <private> blocks are taken out.
func Unmasked(s string) string {
	s = strings.ReplaceAll(s, Private, "")
	for {
		i := strings.Index(s, maskPrefix)
		if i < 0 {
			return s
		}
		j := strings.IndexByte(s[i:], ']')
		if j < 0 {
			return s
		}
		s = s[:i] + s[i+j+1:]
	}
}

type rule struct {
	kind     string
	keywords []string // lower-case; the rule runs if any occurs in the lower-cased text
	// exact keywords are matched in the text as it is, for short prefixes
	// that lower-cased occur in common words ("AC" in "package").
	exact []string
	// whole: the rule matches across many lines (a key block), so it runs
	// on the whole text; the others run only near their keywords.
	whole   bool
	pattern string
	// group is the submatch that holds the secret; 0 masks the whole match,
	// -1 the last of the submatches that matched.
	group int
	// scan, when set, replaces pattern: it masks the rule's secrets itself.
	scan func(s string) string
	// keep, when set, decides that a candidate is not a secret after all.
	keep func(secret string) bool
}

// rules run in order; earlier rules mask text that later, broader rules
// would otherwise only partly cover (a PEM block before key=value lines).
var rules = []rule{
	{kind: "private-key", keywords: []string{"private key"}, whole: true,
		// Whole PEM blocks, also flattened onto one line or with literal \n
		// escapes; an unterminated block is masked to the end of its base64.
		pattern: `-----BEGIN[A-Z0-9 ]*PRIVATE KEY(?: BLOCK)?-----(?:[\s\S]*?-----END[A-Z0-9 ]*PRIVATE KEY(?: BLOCK)?-----|[A-Za-z0-9+/=\s\\:,.-]*)`},
	{kind: "private-key", keywords: []string{"putty-user-key-file"}, whole: true,
		pattern: `PuTTY-User-Key-File-\d+:[\s\S]*?Private-MAC: *[0-9a-fA-F]+`},
	{kind: "age-key", keywords: []string{"age-secret-key-1"},
		pattern: `AGE-SECRET-KEY-1[0-9A-Z]{58}`},

	// Provider tokens with a recognisable prefix.
	{kind: "aws-access-key", keywords: []string{"akia", "asia", "abia", "acca", "a3t"},
		pattern: `\b(?:AKIA|ASIA|ABIA|ACCA|A3T[A-Z0-9])[A-Z0-9]{16}\b`},
	{kind: "github-token", keywords: []string{"ghp_", "gho_", "ghu_", "ghs_", "ghr_"},
		pattern: `\bgh[pousr]_[A-Za-z0-9]{30,255}\b`},
	{kind: "github-token", keywords: []string{"github_pat_"},
		pattern: `\bgithub_pat_[A-Za-z0-9_]{22,255}`},
	{kind: "gitlab-token", keywords: []string{"glpat-", "gldt-", "glrt-", "glptt-", "glcbt-", "gloas-", "glsoat-"},
		pattern: `\bgl(?:pat|dt|rt|ptt|cbt|oas|soat)-[A-Za-z0-9_\-.]{20,}`},
	{kind: "slack-token", keywords: []string{"xox", "xapp-"},
		pattern: `\b(?:xox[abposre]|xapp)-[A-Za-z0-9-]{10,}`},
	{kind: "square-token", keywords: []string{"sq0atp-", "sq0csp-", "eaaa"},
		pattern: `\b(?:sq0(?:atp|csp)-[A-Za-z0-9_\-]{22,}|EAAA[A-Za-z0-9_\-]{56,})`},
	{kind: "slack-webhook", keywords: []string{"hooks.slack.com"},
		pattern: `https://hooks\.slack\.com/(?:services|workflows|triggers)/[A-Za-z0-9/_+-]+`},
	{kind: "stripe-key", keywords: []string{"_live_", "_test_", "whsec_"},
		pattern: `\b(?:(?:sk|rk|pk)_(?:live|test)_[A-Za-z0-9]{10,}|whsec_[A-Za-z0-9]{20,})`},
	{kind: "anthropic-key", keywords: []string{"sk-ant-"},
		pattern: `\bsk-ant-[A-Za-z0-9_\-]{20,}`},
	{kind: "openai-key", keywords: []string{"sk-"},
		pattern: `\bsk-(?:proj-|svcacct-|admin-|None-)?[A-Za-z0-9_\-]{20,}`,
		// sk-learn-style package names and long kebab-case words are not keys.
		keep: func(s string) bool { return !hasDigit(s) }},
	{kind: "google-api-key", keywords: []string{"aiza"},
		pattern: `\bAIza[0-9A-Za-z_\-]{35}`},
	{kind: "google-oauth", keywords: []string{"ya29.", "gocspx-"},
		pattern: `\b(?:ya29\.[0-9A-Za-z_\-]{20,}|GOCSPX-[0-9A-Za-z_\-]{20,})`},
	{kind: "npm-token", keywords: []string{"npm_"},
		pattern: `\bnpm_[A-Za-z0-9]{36}\b`},
	{kind: "pypi-token", keywords: []string{"pypi-"},
		pattern: `\bpypi-[A-Za-z0-9_\-]{40,}`},
	{kind: "twilio-key", exact: []string{"SK", "AC"},
		pattern: `\b(?:SK|AC)[0-9a-f]{32}\b`},
	{kind: "sendgrid-key", keywords: []string{"sg."},
		pattern: `\bSG\.[A-Za-z0-9_\-]{16,32}\.[A-Za-z0-9_\-]{16,64}`},
	{kind: "heroku-key", keywords: []string{"hrku-"},
		pattern: `\bHRKU-[A-Za-z0-9_\-]{20,}`},
	{kind: "heroku-key", keywords: []string{"heroku"},
		pattern: `(?i)heroku[A-Za-z0-9_ .\-]{0,30}[=:"' ]+([0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12})`, group: 1},
	{kind: "digitalocean-token", keywords: []string{"_v1_"},
		pattern: `\bdo[opr]_v1_[a-f0-9]{64}\b`},
	{kind: "huggingface-token", keywords: []string{"hf_"},
		pattern: `\bhf_[A-Za-z0-9]{30,}\b`},
	{kind: "azure-key", keywords: []string{"accountkey=", "sharedaccesskey=", "sharedaccesssignature=", "sig="},
		pattern: `(?i)\b(?:AccountKey|SharedAccessKey|SharedAccessSignature|sig)=([^;&\s"'<>]+)`, group: 1},
	{kind: "shopify-token", keywords: []string{"shpat_", "shpss_", "shpca_", "shppa_"},
		pattern: `\bshp(?:at|ss|ca|pa)_[a-fA-F0-9]{32}\b`},
	{kind: "mailgun-key", keywords: []string{"key-"},
		pattern: `\bkey-[0-9a-zA-Z]{32}\b`},
	{kind: "mailchimp-key", keywords: []string{"-us"},
		pattern: `\b[0-9a-f]{32}-us[0-9]{1,2}\b`},
	{kind: "telegram-token", keywords: []string{":aa"},
		pattern: `\b[0-9]{8,10}:AA[A-Za-z0-9_\-]{33}\b`},
	{kind: "atlassian-token", keywords: []string{"atatt3"},
		pattern: `\bATATT3[A-Za-z0-9_\-=]{30,}`},
	{kind: "linear-key", keywords: []string{"lin_api_"},
		pattern: `\blin_api_[A-Za-z0-9]{30,}`},
	{kind: "doppler-token", keywords: []string{"dp.pt.", "dp.st.", "dp.sa.", "dp.ct."},
		pattern: `\bdp\.(?:pt|st|sa|ct)\.[A-Za-z0-9]{30,}`},
	{kind: "supabase-token", keywords: []string{"sbp_"},
		pattern: `\bsbp_[a-f0-9]{40}\b`},
	{kind: "databricks-token", keywords: []string{"dapi"},
		pattern: `\bdapi[a-f0-9]{32}(?:-\d)?\b`},
	{kind: "postman-key", keywords: []string{"pmak-"},
		pattern: `\bPMAK-[a-f0-9]{24}-[a-f0-9]{34}\b`},
	{kind: "grafana-token", keywords: []string{"glsa_", "glc_"},
		pattern: `\b(?:glsa_[A-Za-z0-9]{32}_[A-Fa-f0-9]{8}|glc_[A-Za-z0-9+/]{32,}={0,2})`},
	{kind: "newrelic-key", keywords: []string{"nrak-", "nrjs-", "nrii-"},
		pattern: `\bNR(?:AK|JS|II)-[A-Za-z0-9]{20,}`},
	{kind: "sentry-token", keywords: []string{"sntrys_", "sntryu_"},
		pattern: `\bsntry[su]_[A-Za-z0-9_=+/]{30,}`},
	{kind: "docker-token", keywords: []string{"dckr_pat_"},
		pattern: `\bdckr_pat_[A-Za-z0-9_\-]{20,}`},
	{kind: "fly-token", keywords: []string{"fo1_", "fm2_"},
		pattern: `\b(?:fo1_[A-Za-z0-9_\-]{30,}|fm2_[A-Za-z0-9+/=_\-]{30,})`},
	{kind: "pulumi-token", keywords: []string{"pul-"},
		pattern: `\bpul-[a-f0-9]{40}\b`},
	{kind: "terraform-token", keywords: []string{".atlasv1."},
		pattern: `\b[A-Za-z0-9]{14}\.atlasv1\.[A-Za-z0-9_\-=]{40,}`},
	{kind: "vault-token", keywords: []string{"hvs.", "hvb."},
		pattern: `\bhv[sb]\.[A-Za-z0-9_\-]{24,}`},
	{kind: "discord-webhook", keywords: []string{"discord.com/api/webhooks", "discordapp.com/api/webhooks"},
		pattern: `https://(?:discord|discordapp)\.com/api/webhooks/[0-9]+/[A-Za-z0-9_\-]+`},

	// Structural secrets.
	{kind: "jwt", keywords: []string{"eyj"},
		pattern: `\beyJ[A-Za-z0-9_\-]{8,}\.eyJ[A-Za-z0-9_\-]{8,}\.[A-Za-z0-9_\-]*`},
	{kind: "url-credentials", keywords: []string{"://"},
		// The user may be empty: redis://:PASSWORD@host.
		pattern: `\b[A-Za-z][A-Za-z0-9+.\-]{1,20}://[^\s:/?#@"'<>\x60]*:([^\s/"'<>\x60]+)@`, group: 1},
	{kind: "cli-password", keywords: []string{"mysql", "mariadb", "sshpass", "login"},
		// -pSECRET or -p SECRET on the command lines that take a password
		// that way (-p is a port or a path elsewhere, -P the port here).
		pattern: `\b(?:mysql\w*|mariadb\w*|sshpass|login)\b[^\n|;&]*?\s-p\s*("[^"\s]+"|'[^'\s]+'|[^\s"'-][^\s"']*)`, group: 1},
	{kind: "cli-password", keywords: []string{"-u", "--user"},
		// curl -u user:password, --user user:password.
		pattern: `(?:\s|^)(?:-u|--user)[ =]?["']?[^\s:"']+:([^\s"'@]+)`, group: 1},
	{kind: "authorization", keywords: []string{"bearer", "basic", "authorization", "token "},
		pattern: `(?i)\b(?:bearer|basic|token)\s+([A-Za-z0-9_\-.~+/]{12,}=*)`, group: 1,
		keep: func(s string) bool { return !hasDigit(s) && !strings.ContainsAny(s, "_-.~+/=") }},
	{kind: "authorization", keywords: []string{"authorization"},
		pattern: `(?i)\bauthorization["']?\s*[:=]\s*["'\x60]?([^\s"',;\x60]{8,})`, group: 1},
	{kind: "cookie", keywords: []string{"cookie"}, scan: maskCookies},
	{kind: "assignment", keywords: assignmentWords,
		// <password>SECRET</password>, key="ApiSecret" value="SECRET",
		// define('DB_PASSWORD', 'SECRET') and other calls with a name and a value.
		pattern: `(?i)(?:<[\w.:\-]*(?:password|passwd|secret|token|api[_\-]?key)[\w.:\-]*>([^<\s]{3,})</|key="[\w.:\-]*(?:password|passwd|secret|token|api[_\-]?key)[\w.:\-]*"\s+value="([^"\s]{3,})"|\(\s*["'][\w.:\-]*(?:password|passwd|secret|token|api[_\-]?key)[\w.:\-]*["']\s*,\s*["']([^"'\s]{3,})["'])`,
		group:   -1, keep: func(v string) bool { return !secretValue(v, "=") }},
	{kind: "assignment", keywords: slices.Concat(weakWords, weakStems, assignmentWords),
		// KEY=value, KEY: value, "key": "value", key => value, --password
		// value: scanned by hand, as an expression for it cost half a
		// microsecond a byte.
		scan: maskAssignments},
}

// weakWords name secrets and much else: a key named with one as a part
// (DB_PASS, STRIPE_WEBHOOK_KEY, AZURE_DEVOPS_EXT_PAT, Pwd, a Docker
// config's or .npmrc's auth) needs "=" or
// ":" and a value that looks like a credential, not a path.
var weakWords = []string{"pwd", "pass", "key", "pat", "auth", "sid"}

// gluedWords end a key part that names a secret written as one word with
// what it guards (requirepass, masterauth, rootpwd); the other weak words
// end common words too (monkey, inside).
var gluedWords = []string{"pass", "pwd", "auth"}

// gluedPart: a key part that ends with a glued word (requirepass).
func gluedPart(part string) bool {
	// Every glued word ends in one of these: most parts are let go by
	// their last byte (this runs on every key-like word of a review).
	if len(part) < 4 || strings.IndexByte("sdh", part[len(part)-1]) < 0 {
		return false
	}
	for _, w := range gluedWords {
		if len(part) > len(w) && strings.HasSuffix(part, w) {
			return true
		}
	}
	return false
}

// glued reports whether key holds a glued word: a key that specific may
// take its value after a space in prose too ("set requirepass …").
func glued(key string) bool {
	for part := range strings.FieldsFuncSeq(asciiLower(key), func(r rune) bool { return r == '_' || r == '-' || r == '.' }) {
		if gluedPart(part) {
			return true
		}
	}
	return false
}

// weakStems are weak wherever they occur in a key: a session id or a
// cookie (sessionid, PHPSESSID, JSESSIONID, _session_id, Cookie) is a
// login, and servers often mint it as hex, which the random-token check
// leaves alone (hex runs are commit hashes and checksums too).
var weakStems = []string{"session", "sessid", "cookie"}

// strongWords: a key holding one names a secret. Each is also a keyword of
// the rule (or holds one), so what the scan finds never depends on whether
// it ran: redaction stays idempotent.
var strongWords = func() []string {
	out := []string{"password", "passwd", "passphrase", "secret", "token", "credential"}
	for _, w := range []string{"api", "access", "auth", "private", "signing", "encryption", "session"} {
		out = append(out, w+"key", w+"_key", w+"-key")
	}
	return out
}()

// maskAssignments masks the value of every KEY=value, KEY: value,
// "key": "value", key => value, key := value and --key value whose key
// names a secret, in one pass over s.
func maskAssignments(s string) string {
	const mask = maskPrefix + "assignment]"
	var b strings.Builder
	last := 0
	for i := 0; i < len(s); {
		if !keyByte(s[i]) {
			i++
			continue
		}
		j := i
		for j < len(s) && keyByte(s[j]) {
			j++
		}
		strong, weak := keyKind(s[i:j])
		if !strong && !weak {
			i = j
			continue
		}
		k := j
		// Between the key and its operator: the key's closing quote, an
		// escaped one (JSON inside a string literal: \"password\":) or
		// markdown around the key (**secret**:, `token`:).
		for n := 0; n < 3 && k < len(s) && strings.IndexByte("\"'*`\\", s[k]) >= 0; n++ {
			k++
		}
		sepStart := k
		for k < len(s) && isSpace(s[k]) {
			k++
		}
		op, block := "", false
		for _, o := range ops {
			if strings.HasPrefix(s[k:], o) && (o != "is " || k > sepStart) {
				op = o
				k += len(o)
				break
			}
		}
		if op != "" {
			for k < len(s) && isSpace(s[k]) {
				k++
			}
			// The other side of an escaped or quoted value: \"SECRET\".
			if k+1 < len(s) && s[k] == '\\' && (s[k+1] == '"' || s[k+1] == '\'') {
				k++
			}
			if op == ":" {
				k, block = blockScalar(s, k)
			}
		} else if k == sepStart || strings.ContainsAny(s[j:sepStart], "*`\\") {
			// A space alone joins a key to its value only in prose
			// ("secret 7f3a…"); after a code span or emphasis it is the
			// next word of the sentence.
			i = j
			continue
		}
		// A quoted value after a key that names a secret may hold spaces
		// (a passphrase); elsewhere a space ends it.
		vs, ve := value(s, k, strong && op != "" && op != "is " && op != "|")
		if vs < 0 {
			i = j
			continue
		}
		v, sep := s[vs:ve], s[sepStart:k]
		if op == "" && nameValue(v) {
			// "pass -count=1": the key word is the sentence's verb and
			// the word after it an assignment of its own, whose key
			// decides (the scan comes to it next).
			i = j
			continue
		}
		if block || data(s, i, vs, ve, op) {
			sep = "="
		}
		if strings.Contains(v, maskPrefix) || v == Private || insideMask(s, vs) || isLabel(v) || op == ":" && isLocation(s[i:j], v) || !secretValue(v, sep) ||
			!strong && (op == "" && (!configLine(s, i, ve) && !glued(s[i:j]) || !mixed(v)) || !looksLikeCredential(v) || strings.ContainsAny(v, "/\\`()") ||
				(op == "is " || op == "|") && len(v) < minRandom) {
			i = j
			continue
		}
		b.WriteString(s[last:vs])
		b.WriteString(mask)
		last = ve
		i = ve
	}
	if last == 0 {
		return s
	}
	b.WriteString(s[last:])
	return b.String()
}

// maskCookies masks, in every Cookie: or Set-Cookie: header (or
// cookie=), each cookie's value that is a long hex or base64 run or
// looks like a credential, whatever the cookie is called: servers mint
// session ids and signed state as such runs, and a cookie's name says
// nothing (remember_me, uid, _app_state). Short values and attributes
// (lang=en-US, Path=/, Max-Age=31536000) stay.
func maskCookies(s string) string {
	const mask = maskPrefix + "cookie]"
	var b strings.Builder
	last := 0
	// "ookie", then its C: no lower-cased copy of a long review for a
	// word it seldom holds.
	for from := 1; from < len(s); {
		j := indexOokie(s[from:])
		if j < 0 {
			break
		}
		k := from + j + len("ookie")
		from = k
		if c := s[k-len("cookie")]; c != 'c' && c != 'C' || k < len(s) && keyByte(s[k]) {
			continue
		}
		for n := 0; n < 2 && k < len(s) && strings.IndexByte("\"'*`", s[k]) >= 0; n++ {
			k++
		}
		for k < len(s) && (s[k] == ' ' || s[k] == '\t') {
			k++
		}
		if k >= len(s) || s[k] != ':' && s[k] != '=' {
			continue
		}
		k++
		// The header's pairs run to the end of its line, or of the code
		// span or string it is quoted in.
		end := len(s)
		if e := strings.IndexByte(s[k:], '\n'); e >= 0 {
			end = k + e
		}
		if e := strings.IndexAny(s[k:end], "`\"'"); e >= 0 && e > 0 {
			end = k + e
		}
		for p := k; p < end; {
			q := p + strings.IndexByte(s[p:end]+";", ';')
			pair := s[p:q]
			vs := p
			if eq := strings.IndexByte(pair, '='); eq >= 0 {
				vs = p + eq + 1
			}
			for vs < q && s[vs] == ' ' {
				vs++
			}
			// A value ends where the header's prose goes on: a space, a
			// comma, a bracket.
			ve := vs
			for ve < q && strings.IndexByte(" \t,()[]", s[ve]) < 0 {
				ve++
			}
			for ve > vs && s[ve-1] == '.' {
				ve-- // the sentence's period
			}
			// A pair another rule has masked part of is left as it is: its
			// value would be read differently on a second pass, and
			// redaction must not change what it already redacted.
			if v := strings.TrimRight(s[vs:ve], "="); vs >= last && len(v) >= 16 &&
				!strings.Contains(pair, maskPrefix) && (isHex(v) || looksLikeCredential(v)) {
				b.WriteString(s[last:vs])
				b.WriteString(mask)
				last = ve
			}
			p = q + 1
		}
		from = max(from, end)
	}
	if last == 0 {
		return s
	}
	b.WriteString(s[last:])
	return b.String()
}

// indexOokie is the index of "ookie" or "OOKIE" in s (Cookie, cookie,
// COOKIE), or -1: two SIMD searches, where a case-folding one would
// look at every "o" of a long review.
func indexOokie(s string) int {
	i, j := strings.Index(s, "ookie"), strings.Index(s, "OOKIE")
	if i < 0 || j >= 0 && j < i {
		return j
	}
	return i
}

// ops join a key to its value. "|" is a table's next cell, "%3D" an
// "=" in a URL-encoded query, "is " the same said in a sentence ("the
// api key is …"); like ":" these also join prose, so the value must look
// like a credential.
var ops = []string{"=>", ":=", "=", ":", "|", "%3D", "%3d", "is "}

// data reports whether the assignment of s[vs:ve] to the key at s[i:] is
// data, not prose, though its operator is ":": the value is quoted
// ("password": "…", password: '…'), closes a code span (`password: …`),
// or key and value fill a line the way YAML writes them. Data's value is a secret whatever it looks like.
func data(s string, i, vs, ve int, op string) bool {
	switch op {
	case "=", ":=", "=>", "%3D", "%3d":
		return true
	case ":":
	default:
		return false
	}
	if vs > 0 && strings.IndexByte("\"'`", s[vs-1]) >= 0 || ve < len(s) && s[ve] == '`' {
		// Unless the value names something: "OPENAI_API_KEY": "openai_api_key".
		v := s[vs:ve]
		return !isWordy(v) || !strings.ContainsAny(v, "_.")
	}
	for _, c := range []byte(s[ve:min(len(s), ve+64)]) {
		if c == '\n' {
			break
		}
		if !isSpace(c) {
			return false
		}
	}
	for p := i - 1; p >= 0 && s[p] != '\n'; p-- {
		if !isSpace(s[p]) && s[p] != '-' && s[p] != '>' {
			return false
		}
	}
	return true
}

// configLine reports whether the key at s[i:] and its value, which ends at
// ve, are a line of their own or a code span of their own: how config
// files that join a key to its value with a space write it (redis.conf's
// requirepass, keepalived's auth_pass, ssh and nginx configs).
func configLine(s string, i, ve int) bool {
	if i > 0 && s[i-1] == '`' {
		return ve < len(s) && s[ve] == '`'
	}
	for p := i - 1; p >= 0 && s[p] != '\n'; p-- {
		if !isSpace(s[p]) && s[p] != '-' && s[p] != '>' && s[p] != '#' {
			return false
		}
	}
	for _, c := range []byte(s[ve:min(len(s), ve+64)]) {
		if c == '\n' {
			return true
		}
		if !isSpace(c) {
			return false
		}
	}
	return ve+64 > len(s)
}

// blockScalar: a YAML block scalar (password: |, token: >-) holds its
// value on the next line; blockScalar returns where that line's text
// starts, or k unchanged.
func blockScalar(s string, k int) (int, bool) {
	if k >= len(s) || s[k] != '|' && s[k] != '>' {
		return k, false
	}
	e := k + 1
	for e < len(s) && (s[e] == '-' || s[e] == '+' || s[e] >= '1' && s[e] <= '9') {
		e++
	}
	for e < len(s) && (s[e] == ' ' || s[e] == '\t' || s[e] == '\r') {
		e++
	}
	if e >= len(s) || s[e] != '\n' {
		return k, false
	}
	for e < len(s) && isSpace(s[e]) {
		e++
	}
	return e, true
}

// isLabel: "**Token Handling:** …" names a topic; its "value" ends in a
// colon, which no credential written in a review does.
func isLabel(v string) bool {
	return strings.HasSuffix(strings.TrimRight(v, "*_"), ":")
}

// isLocation: token.ts:40-52 is a file and its lines, not a key and its
// value.
func isLocation(key, v string) bool {
	dot := strings.LastIndexByte(key, '.')
	return dot >= 0 && len(key)-dot-1 >= 1 && len(key)-dot-1 <= 5 && v[0] >= '0' && v[0] <= '9'
}

// keyKind tells whether a key names a secret (strong) or might (weak).
func keyKind(key string) (strong, weak bool) {
	key = strings.TrimLeft(key, "-")
	if len(key) < 3 {
		return false, false
	}
	lower := asciiLower(key)
	if lower == "cookie" || lower == "set-cookie" {
		return false, false // a header of name=value pairs: maskCookies
	}
	for _, w := range strongWords {
		if strings.Contains(lower, w) {
			return true, false
		}
	}
	for part := range strings.FieldsFuncSeq(lower, func(r rune) bool { return r == '_' || r == '-' || r == '.' }) {
		if slices.Contains(weakWords, part) {
			return false, true
		}
		if gluedPart(part) {
			return false, true
		}
	}
	for _, w := range weakStems {
		if strings.Contains(lower, w) {
			return false, true
		}
	}
	return false, false
}

// value finds an assignment's value at s[k:]: "quoted", 'quoted',
// `quoted` (no spaces inside any unless spaces) or a bare run; at least 3
// bytes. A backslash ends a quoted value: \"quoted\" inside a literal. A bare
// run ends at a backtick, which closes the code span a review quotes it in:
// masking the backtick too would leave the span open and garble the
// markdown after it.
func value(s string, k int, spaces bool) (start, end int) {
	if k >= len(s) {
		return -1, -1
	}
	if q := s[k]; q == '"' || q == '\'' || q == '`' {
		e := k + 1
		for e < len(s) && s[e] != q && s[e] != '\\' && (spaces && s[e] == ' ' && e-k < 200 || !isSpace(s[e])) {
			e++
		}
		if e < len(s) && (s[e] == q || s[e] == '\\' && e+1 < len(s) && s[e+1] == q) && e-k-1 >= 3 {
			return k + 1, e
		}
		return -1, -1
	}
	e := k
	for e < len(s) && !isSpace(s[e]) && !strings.ContainsRune("\"',;)]}<>`", rune(s[e])) {
		e++
	}
	if e-k < 3 {
		return -1, -1
	}
	return k, e
}

// nameValue reports whether v is itself name=value (-count=1,
// --flag=on, GOFLAGS=-mod=mod): a name of key bytes, "=", then a value.
// Base64 padding (c2VjcmV0==, YWJj=) ends the run and is not one.
func nameValue(v string) bool {
	n := strings.TrimLeft(v, "-")
	p := strings.IndexByte(n, '=')
	if p <= 0 || p+1 >= len(n) || n[p+1] == '=' {
		return false
	}
	for i := 0; i < p; i++ {
		if !keyByte(n[i]) {
			return false
		}
	}
	return true
}

func keyByte(c byte) bool {
	return c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9' || c == '_' || c == '.' || c == '-'
}

func isSpace(c byte) bool {
	return c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == '\f' || c == '\v'
}

var assignmentWords = []string{"password", "passwd", "passphrase", "secret", "token", "api_key", "api-key", "apikey", "access_key", "access-key", "accesskey", "auth_key", "auth-key", "authkey", "private_key", "private-key", "privatekey", "credential", "signing", "encryption", "session_key", "session-key", "sessionkey"}

// compiled holds each rule's expression, compiled when a text first has
// one of its keywords: a review triggers a few rules, and compiling all
// of them cost the capture hook more than a millisecond and a megabyte.
var compiled = sync.OnceValue(func() []func() *regexp.Regexp {
	out := make([]func() *regexp.Regexp, len(rules))
	for i := range rules {
		out[i] = sync.OnceValue(func() *regexp.Regexp {
			if rules[i].scan != nil {
				return nil
			}
			return regexp.MustCompile(rules[i].pattern)
		})
	}
	return out
})

// keywordIndex finds every rule's keywords in one pass over the text:
// searching for each keyword in turn cost more than the rules themselves on
// long reviews. A bit per byte pair says whether any keyword starts with
// it; only those positions look further.
var keywordIndex = sync.OnceValue(func() *kwIndex {
	idx := &kwIndex{byPair: map[uint16][]kwRef{}}
	for i, r := range rules {
		for _, kw := range r.keywords {
			if len(kw) < 2 || kw != strings.ToLower(kw) {
				panic("redact: keyword " + kw + " must be lower-case and two bytes or more")
			}
			p := pair(kw, 0)
			idx.bits[p>>6] |= 1 << (p & 63)
			idx.byPair[p] = append(idx.byPair[p], kwRef{kw, i})
		}
	}
	return idx
})

type kwIndex struct {
	bits   [1 << 16 / 64]uint64
	byPair map[uint16][]kwRef
}

type kwRef struct {
	kw   string
	rule int
}

func pair(s string, i int) uint16 { return uint16(s[i])<<8 | uint16(s[i+1]) }

// present reports, per rule, whether one of its keywords occurs in lower.
func present(lower string) []bool {
	idx := keywordIndex()
	on := make([]bool, len(rules))
	for i := 0; i+1 < len(lower); i++ {
		p := pair(lower, i)
		if idx.bits[p>>6]&(1<<(p&63)) == 0 {
			continue
		}
		for _, ref := range idx.byPair[p] {
			if !on[ref.rule] && strings.HasPrefix(lower[i:], ref.kw) {
				on[ref.rule] = true
			}
		}
	}
	return on
}

var privateRE = sync.OnceValue(func() *regexp.Regexp {
	// An unterminated block runs to the end of the text: the user meant it
	// to be private, and a missing close tag is no reason to leak it.
	// Attributes, spaces inside the brackets and any case still mark the
	// block: <private reason="x">, < private >, </ PRIVATE >.
	return regexp.MustCompile(`(?is)<\s*private(?:\s[^>]*)?>.*?(?:<\s*/\s*private\s*>|\z)`)
})

// String returns s with every secret it recognises replaced by
// "[REDACTED:<kind>]" and every <private>…</private> block by "[PRIVATE]".
// It is idempotent: String(String(s)) == String(s).
//
// The text is first cleaned by sanitize.Text: a zero-width space or an
// escape sequence inside a token would hide it from every rule, and
// whatever is redacted is on its way to disk, where neither belongs.
func String(s string) string {
	s = sanitize.Text(s)
	if s == "" {
		return s
	}
	lower := asciiLower(s)
	if strings.Contains(lower, "private") {
		s = privateRE().ReplaceAllLiteralString(s, Private)
		lower = asciiLower(s)
	}
	// Which rules can match is decided once, on the text as it came: a
	// mask ("[REDACTED:github-token]") is no reason to run another rule.
	on := present(lower)
	res := compiled()
	if next := brokenTokens(s, lower, on, res); next != s {
		s, lower = next, asciiLower(next)
	}
	for i := range rules {
		r := &rules[i]
		if !on[i] && !slices.ContainsFunc(r.exact, func(w string) bool { return strings.Contains(s, w) }) {
			continue
		}
		var next string
		switch {
		case r.scan != nil:
			next = r.scan(s)
		case r.whole:
			next = apply(res[i](), r, s)
		case on[i]:
			next = applyNear(res[i](), r, s, lower, r.keywords)
		default:
			next = applyNear(res[i](), r, s, s, r.exact)
		}
		if next != s {
			s, lower = next, asciiLower(next)
		}
	}
	return randomTokens(s)
}

// brokenTokens masks a key id of a fixed length (AKIA and 16 more, a
// provider's prefix and its run) that whitespace broke in two: a log line wrapped, a narrow column, a
// blockquote's "> " on the next line. Each such rule (pattern "\b", the
// prefix, a run of fixed length) is tried on the token at the keyword
// joined to the token after one gap of white space (one line break at
// most); a match that reaches into the second part masks both parts and
// the gap.
func brokenTokens(s, lower string, on []bool, res []func() *regexp.Regexp) string {
	type found struct {
		span
		kind string
	}
	var masks []found
	for i := range rules {
		r := &rules[i]
		if !on[i] || r.whole || r.scan != nil || r.group != 0 || !strings.HasPrefix(r.pattern, `\b`) || !fixedLength(r.pattern) {
			continue
		}
		for _, kw := range r.keywords {
			for from := 0; ; {
				j := strings.Index(lower[from:], kw)
				if j < 0 {
					break
				}
				p := from + j
				from = p + len(kw)
				if p > 0 && wordByte(s[p-1]) {
					continue
				}
				e1 := p
				for e1 < len(s) && tokenByte(s[e1]) {
					e1++
				}
				e2, ok := gap(s, e1)
				if !ok {
					continue
				}
				e3 := e2
				for e3 < len(s) && tokenByte(s[e3]) {
					e3++
				}
				// A token the rule takes whole ends where it ends; a
				// word after the gap is the sentence going on.
				if m := res[i]().FindStringIndex(s[p:e1]); m != nil && m[0] == 0 && m[1] == e1-p || isWordy(s[e2:e3]) {
					continue
				}
				joined := s[p:e1] + s[e2:e3]
				m := res[i]().FindStringIndex(joined)
				if m == nil || m[0] != 0 || m[1] <= e1-p || r.keep != nil && r.keep(joined[:m[1]]) {
					continue
				}
				masks = append(masks, found{span{p, e2 + m[1] - (e1 - p)}, r.kind})
				from = e3
			}
		}
	}
	if len(masks) == 0 {
		return s
	}
	slices.SortFunc(masks, func(a, b found) int { return a.start - b.start })
	var b strings.Builder
	last := 0
	for _, m := range masks {
		if m.start < last {
			continue
		}
		b.WriteString(s[last:m.start])
		b.WriteString(maskPrefix + m.kind + "]")
		last = m.end
	}
	b.WriteString(s[last:])
	return b.String()
}

// fixedLength: a pattern that ends with a run of an exact length, a key
// id's shape (AKIA and 16 more). Only such a run tells a token broken in
// two from a token followed by the next word: an open-ended one
// (sk-…{20,}) would take the next line's first word as its rest.
func fixedLength(pattern string) bool {
	p := strings.TrimSuffix(pattern, `\b`)
	open := strings.LastIndexByte(p, '{')
	if open < 1 || p[open-1] != ']' || !strings.HasSuffix(p, "}") {
		return false
	}
	n := p[open+1 : len(p)-1]
	return n != "" && strings.Trim(n, "0123456789") == ""
}

// gap is the end of the white space at s[i:] that can break a token in
// two: spaces and tabs, at most one line break, and after it a
// blockquote's ">" markers; a few bytes at most, followed by more token.
func gap(s string, i int) (int, bool) {
	j, lines := i, 0
	for j < len(s) && j-i <= 12 {
		switch c := s[j]; {
		case c == ' ' || c == '\t' || c == '\r':
		case c == '\n':
			lines++
		case c == '>' && lines == 1:
		default:
			return j, j > i && lines <= 1 && tokenByte(c)
		}
		j++
	}
	return j, false
}

func wordByte(c byte) bool {
	return c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9' || c == '_'
}

// Near a keyword: the rules' expressions cost a hundred nanoseconds and more
// a byte, so on a long review they run only on the stretches around their
// keywords: the keyword's line, at most before bytes back and after bytes
// on.
const (
	before = 256
	after  = 1024
)

type span struct{ start, end int }

// applyNear applies r to the stretches of s around each keyword found in
// text (s lower-cased, or s itself for exact keywords; same length).
func applyNear(re *regexp.Regexp, r *rule, s, text string, keywords []string) string {
	ws := near(text, keywords)
	if len(ws) == 0 {
		return s
	}
	var b strings.Builder
	last := 0
	for _, w := range ws {
		b.WriteString(s[last:w.start])
		b.WriteString(apply(re, r, s[w.start:w.end]))
		last = w.end
	}
	if last == 0 && b.Len() == len(s) {
		return s
	}
	b.WriteString(s[last:])
	if out := b.String(); out != s {
		return out
	}
	return s
}

// near lists, sorted and merged, the stretches around every occurrence of
// the keywords in text. Occurrences inside a stretch already found extend
// nothing, so the scan stays linear.
func near(text string, keywords []string) []span {
	var ws []span
	for _, kw := range keywords {
		covered := 0
		for from := 0; ; {
			j := strings.Index(text[from:], kw)
			if j < 0 {
				break
			}
			p := from + j
			from = p + len(kw)
			if p < covered {
				continue
			}
			lo := max(0, p-before)
			start := lo + strings.LastIndexByte(text[lo:p], '\n') + 1
			hi := min(len(text), p+after)
			end := hi
			if k := strings.IndexByte(text[from:hi], '\n'); k >= 0 {
				end = from + k
			}
			ws = append(ws, span{start, end})
			covered = end
		}
	}
	if len(ws) < 2 {
		return ws
	}
	slices.SortFunc(ws, func(a, b span) int { return a.start - b.start })
	out := ws[:1]
	for _, w := range ws[1:] {
		if l := &out[len(out)-1]; w.start <= l.end {
			l.end = max(l.end, w.end)
		} else {
			out = append(out, w)
		}
	}
	return out
}

// asciiLower lower-cases ASCII letters only, so offsets in the result are
// offsets in s (the keywords are ASCII).
func asciiLower(s string) string {
	i := 0
	for i < len(s) && !(s[i] >= 'A' && s[i] <= 'Z') {
		i++
	}
	if i == len(s) {
		return s
	}
	b := []byte(s)
	for ; i < len(b); i++ {
		if c := b[i]; c >= 'A' && c <= 'Z' {
			b[i] = c + 'a' - 'A'
		}
	}
	return string(b)
}

func apply(re *regexp.Regexp, r *rule, s string) string {
	mask := maskPrefix + r.kind + "]"
	matches := re.FindAllStringSubmatchIndex(s, -1)
	if matches == nil {
		return s
	}
	var b strings.Builder
	last := 0
	for _, m := range matches {
		start, end := m[0], m[1]
		switch {
		case r.group > 0:
			start, end = m[2*r.group], m[2*r.group+1]
		case r.group < 0:
			start, end = -1, -1
			for g := 1; g < len(m)/2; g++ {
				if m[2*g] >= 0 {
					start, end = m[2*g], m[2*g+1]
				}
			}
		}
		if start < 0 || start < last {
			continue
		}
		secret := s[start:end]
		if strings.Contains(secret, maskPrefix) || secret == Private || insideMask(s, start) || r.keep != nil && r.keep(secret) {
			continue
		}
		b.WriteString(s[last:start])
		b.WriteString(mask)
		last = end
	}
	if last == 0 {
		return s
	}
	b.WriteString(s[last:])
	return b.String()
}

// insideMask reports whether s[at:] starts inside a "[REDACTED:kind]"
// mask: the colon in a mask looks like user:password to the URL rule.
func insideMask(s string, at int) bool {
	// A mask is short: looking further back would make redaction
	// quadratic in the text.
	lo := max(0, at-64)
	i := strings.LastIndex(s[lo:at], maskPrefix)
	return i >= 0 && !strings.Contains(s[lo+i:at], "]")
}

// secretValue decides whether the value of a password-style assignment is a
// secret. sep is the text between the key and the value. References to a
// secret kept elsewhere ($VAR, ${VAR}, <placeholder>, os.Getenv(...)) and
// masks are not; after ":" or a space (prose, YAML) the value must also look
// like a credential, so "token: the parser's token" keeps its words.
func secretValue(v, sep string) bool {
	switch {
	case strings.HasPrefix(v, "$"), strings.HasPrefix(v, "%"), strings.HasPrefix(v, "{{"),
		strings.HasPrefix(v, "<"), strings.HasPrefix(v, "*"), strings.HasPrefix(v, "["),
		strings.HasPrefix(v, "process.env"), strings.HasPrefix(v, "os.Getenv"), strings.HasPrefix(v, "os.environ"),
		strings.HasPrefix(v, "env."), strings.HasPrefix(v, "ENV["):
		return false
	}
	lv := strings.ToLower(v)
	switch lv {
	case "null", "none", "nil", "true", "false", "undefined", "required", "optional", "redacted", "xxx", "xxxx", "changeme", "example",
		// Types: a field declared in a class or an interface (token: str).
		"string", "str", "bytes", "int", "bool", "any", "object":
		return false
	}
	sep = strings.TrimSpace(sep)
	if sep == "=" || sep == ":=" || sep == "=>" {
		return true
	}
	// Key followed by ":" or whitespace: prose and YAML share this form.
	return looksLikeCredential(v)
}

// looksLikeCredential: at least 6 characters mixing two or more classes
// (lower, upper, digit, symbol), or 16+ characters of anything.
func looksLikeCredential(v string) bool {
	if len(v) >= 16 && !strings.ContainsRune(v, ' ') && !isWordy(v) {
		return true
	}
	return mixed(v)
}

// mixed: at least 6 characters mixing classes the way credentials do, and
// identifiers do not (testWhereMultipleIf is letters in long humps).
func mixed(v string) bool {
	if len(v) < 6 {
		return false
	}
	var lower, upper, digit, sym int
	for _, c := range v {
		switch {
		case c >= 'a' && c <= 'z':
			lower = 1
		case c >= 'A' && c <= 'Z':
			upper = 1
		case c >= '0' && c <= '9':
			digit = 1
		default:
			sym = 1
		}
	}
	classes := lower + upper + digit + sym
	// A capitalised word ("Required") or a hyphenated one ("read-only") is
	// prose; a digit or two symbol-separated cases is not, nor letters
	// whose case flips at random (kDHQxKrMUc: words in an identifier make
	// long humps, parseAccessToken).
	return classes >= 3 || classes == 2 && digit == 1 || shortHumps(v) >= 3
}

// isWordy: only letters and single hyphens or underscores between them,
// like an identifier or kebab-case word written in prose.
func isWordy(v string) bool {
	for _, c := range v {
		if !(c >= 'a' && c <= 'z' || c == '-' || c == '_' || c == '.') {
			return false
		}
	}
	return true
}

func hasDigit(s string) bool {
	return strings.ContainsAny(s, "0123456789")
}
