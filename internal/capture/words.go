package capture

import (
	"strconv"
	"strings"
	"sync"
)

// Word lists for the recurrence matcher, built on first use: the hook's
// non-review path never compares lessons and should not pay for the maps
// at process start.

func wordSet(s string) map[string]bool {
	m := map[string]bool{}
	for _, w := range strings.Fields(s) {
		m[w] = true
	}
	return m
}

// stopWords carry no lesson: English function words and the modal and
// hedging vocabulary every review uses ("should", "ensure", "instead").
var stopWords = sync.OnceValue(func() map[string]bool {
	return wordSet(`
a about above after again against all also am an and any are aren as at be because been before being below
between both but by can cannot could did didn do does doesn doing don down during each either else even ever
every few for from further had hasn has have haven having he her here hers herself him himself his how i if in
into is isn it its itself just let ll me more most much must mustn my myself need needs needed no nor not now of
off on once one only or other ought our ours ourselves out over own per re same shall she should shouldn so some
such than that the their theirs them themselves then there these they this those though through thus to too
under until up upon us ve very via was wasn we were weren what when where whether which while who whom whose why
will with within won would wouldn yet you your yours yourself yourselves
e.g eg i.e ie etc vs
ensure make makes made sure instead currently actually really always never still already rather
use used uses using please consider also properly correctly explicitly simply just new
issue problem fix suggestion finding severity location major minor critical blocker blocking
`)
})

// synonyms fold the different words reviewers use for one idea. Only
// unambiguous pairs: a wrong fold here makes different lessons look alike.
var synonyms = sync.OnceValue(func() map[string]string {
	m := map[string]string{
		"absent": "missing", "lacks": "missing", "lacking": "missing", "omits": "missing", "omitted": "missing",
		"omit": "missing", "forgot": "missing", "forgets": "missing", "forgotten": "missing", "unset": "missing",
		"without":   "missing",
		"incorrect": "wrong", "incorrectly": "wrong", "erroneous": "wrong",
		"delete": "remove", "deletes": "remove", "deleted": "remove", "deleting": "remove",
		"directory": "dir", "directories": "dir", "folder": "dir", "folders": "dir", "dirs": "dir",
		"environment": "env", "variable": "var", "variables": "var", "vars": "var",
		"configuration": "config", "configs": "config", "cfg": "config",
		"repository": "repo", "repositories": "repo", "repos": "repo",
		"function": "func", "functions": "func", "method": "func", "methods": "func", "funcs": "func",
		"argument": "arg", "arguments": "arg", "args": "arg", "parameter": "param", "parameters": "param", "params": "param",
		"dependency": "dep", "dependencies": "dep", "deps": "dep",
		"database": "db", "databases": "db",
		"authentication": "auth", "authn": "auth",
		"temporary": "temp", "tmp": "temp",
		"message": "msg", "messages": "msg", "msgs": "msg",
		"err": "error", "errors": "error", "errs": "error",
		"initialize": "init", "initialise": "init", "initialization": "init", "initialisation": "init",
		"documentation": "doc", "docs": "doc", "documents": "doc",
		"implementation": "impl",
		"asynchronous":   "async", "asynchronously": "async",
		"concurrently": "concurrent", "parallel": "concurrent", "simultaneous": "concurrent", "simultaneously": "concurrent",
		"racy": "race", "races": "race",
		"hangs": "hang", "hung": "hang", "stall": "hang", "stalls": "hang", "freeze": "hang", "freezes": "hang", "forever": "hang",
		"timeouts": "timeout", "deadline": "timeout",
		"crash": "fail", "crashes": "fail", "failure": "fail", "failures": "fail", "fails": "fail", "failing": "fail", "failed": "fail",
		"breaks": "fail", "broken": "fail",
		"retries": "retry", "retried": "retry", "retrying": "retry",
		"stale": "outdated", "old": "outdated",
		"leaks": "leak", "leaked": "leak", "leaking": "leak",
		"invoke": "call", "invokes": "call", "invoked": "call", "invoking": "call", "invocation": "call", "invocations": "call",
		"spawn": "start", "spawns": "start", "spawned": "start", "launch": "start", "launches": "start",
		"dispatch": "start", "dispatches": "start",
		"identifier": "id", "ids": "id",
		"pr": "pullrequest", "prs": "pullrequest",
		"ci": "ci", "pipeline": "ci",
	}
	for _, line := range strings.Split(thesaurus, "\n") {
		head, words, ok := strings.Cut(line, ":")
		if !ok {
			continue
		}
		for _, w := range strings.Fields(words) {
			if _, dup := m[w]; !dup {
				m[w] = strings.TrimSpace(head)
			}
		}
	}
	return m
})

// thesaurus is the review vocabulary that names one failure, risk or remedy
// in several words, grouped by what the reviewer means (written from the
// kinds of findings reviews make, not from any labelled pair). Each line is
// "canonical: words that fold into it"; inflections the stemmer already
// joins are left out. A group only holds words that are interchangeable in
// a finding: "block" is "hang" in "blocks the event loop", but "check" is
// not "verify" often enough to fold.
const thesaurus = `
hang: block blocks blocked stalled stalling freezing frozen stuck unresponsive indefinitely
leak: expose exposes exposed exposing exposure reveal reveals revealed disclose discloses disclosed disclosure
missing: lack lacked neglects skips skipped
fail: panic panics panicked throw throws threw thrown raises
verify: validate validates validated validating validation validator verification verifies verified verifying
untrusted: attacker attackers malicious spoofable
forge: forged forges forging spoof spoofs spoofed spoofing fake faked
unbounded: unlimited limitless uncapped
flaky: nondeterministic intermittent intermittently randomly randomized randomizes randomised randomises
duplicate: duplicates duplicated duplicating twice
overwrite: overwrites overwritten overwriting clobber clobbers clobbered clobbering
ignore: ignores ignored ignoring discard discards discarded discarding swallow swallows swallowed swallowing
lose: lost loses losing loss
wait: await awaits awaited awaiting waits waited waiting
secret: secrets credential credentials
permission: permissions privilege privileges
timezone: timezones tz
fd: fds descriptor descriptors
conn: conns connection connections
request: req reqs requests
response: resp responses
bypass: bypasses bypassed circumvent circumvents
escape: escapes escaped escaping sanitize sanitizes sanitized sanitise sanitised
` + abbreviations

// abbreviations are the short forms programmers write interchangeably with
// the word (ctx and context, k8s and kubernetes): the general list the
// recall ranker uses (internal/recall/abbrev.go), less the ones already
// above and the ambiguous ones (ts, sync, min, max).
const abbreviations = `
context: ctx
command: cmd cmds
filesystem: fs
javascript: js
kubernetes: k8s
length: len
library: lib libs libraries
package: pkg pkgs packages
performance: perf
postgres: pg postgresql psql
production: prod
python: py
regexp: regex regexes
specification: spec specs specifications
string: str
transaction: tx txn txns transactions
utility: util utils utilities
websocket: ws websockets
login: signin logon
logout: signout
`

// genericWords appear in lessons of every kind; sharing them says little.
// Matched on the stem and on the lower-cased word.
var genericWords = sync.OnceValue(func() map[string]bool {
	return wordSet(`
test tests tested testing code file files func value values call calls return returns returned run runs running
ran add adds added adding change changes changed update updates updated handle handles handled case cases data
type types name names path paths set sets check checks checked wrong missing error fail work works working way
thing things result results get gets got put line lines step steps time first last each every new old current
other another different
`)
})

// genericStems holds the stems of genericWords, so every inflection of a
// generic word is generic too.
var genericStems = sync.OnceValue(func() map[string]bool {
	m := map[string]bool{}
	for w := range genericWords() {
		m[stem(w)] = true
	}
	return m
})

// background maps a word to its background idf: −ln of the share of
// documents of programming prose that hold it (see backgroundWords).
var background = sync.OnceValue(func() map[string]float32 {
	m := map[string]float32{}
	for _, line := range strings.Split(backgroundWords, "\n") {
		band, words, ok := strings.Cut(line, ":")
		if !ok {
			continue
		}
		v, err := strconv.ParseFloat(band, 32)
		if err != nil {
			panic("backgroundWords: " + line)
		}
		for _, w := range strings.Fields(words) {
			m[w] = float32(v)
		}
	}
	return m
})

const backgroundWords = `
2.5: command file set
3.0: argument default line list name return returns specified string type value
3.5: available code data error first found function gcloud given go https match may method npm number object
3.5: output package path project provide result run see source true user version
4.0: access add alpha arguments authors beta bytes call called case change check class commands configuration
4.0: copyright create current directory empty end example false files flag flags following format fully get
4.0: governed group help http instance key license like might module node none note option order otherwise
4.0: policy read remove request reserved resource rights service since start test time update values without
4.5: account address applied attributes billing buffer build cache character characters cloud compute cond
4.5: config connection contains context copy defined delete dependencies details different enabled entry
4.5: environment errors field filter find flatten full global header identifier ignore information input
4.5: install int keys last limit link local log mem message methods mode multiple named names network next
4.5: notice objects operation optional options packages passed point possible prefix process provided python
4.5: quiet range region registry required response returned root running section server single size sort
4.5: specific specify support system target text token trace tree try two types valid variable verbosity want
4.5: write
5.0: added allow allowed allows another anything apply args array associated attribute avoid back base based
5.0: behavior binary bit bits block body boolean byte calling calls cases changes child client cluster
5.0: complete const contain container containing correct corresponding created custom defaults dependency
5.0: describe description directly documentation done early element elements encoding engine entries event
5.0: except exception exist existing expected expression fail fails feature fields folder foo form functions
5.0: generated google handle headers host ignored immediately impersonate implementation import include
5.0: including index installed instances integer interface internal invalid item keep know least length level
5.0: lines load long loop map mask matches matching maximum means memory nil nodes null offset open operations
5.0: original override page param parameter parameters parent parse part pass pattern permission position
5.0: present print property ptr qualified raise relative removed reports represents resources results script
5.0: scripts second security sequence sets setting socket spec special specifies specifying stack standard
5.0: state store stream strings supported sym table tag tests times trying unless variables versions way ways
5.0: windows work workspace workspaces writing written zero
5.5: absolute according actual additional adds algorithm allowlist appropriate asm assume async automatically
5.5: backup better binding caller cause certificate changed char checks classes clear close comma comment
5.5: common compatibility compiler condition configured constant content contents control conversion convert
5.5: count creates creating database decimal depending deprecated despite destination determine determined
5.5: dictionary diff directories disable disk display dst effect enable encoded endpoint enough equal
5.5: equivalent everything exactly examples executable exists exit export exported extended extension extra
5.5: failure fetch filename final followed frame future generate gets git groups handler hash however iam id
5.5: implements included includes indicates info init intended interacts invitation items job kind known
5.5: labels language large later leading left len less library listed lists lock longer look main manage
5.5: managed manager many mapping mark member metadata missing modules move namespace necessary normal nothing
5.5: numbers old omitted organization overrides pairs parser parsing paths place platform pointer policies
5.5: pool port positional prevent previous private processes program protocol provides proxy public publish
5.5: put queue raised reading reads real record reference register regular release replace report
5.5: representation requests require requires resolved returning right role rules runs runtime safe scope
5.5: search self send separated services settings shared show signal signature similar simple skip slice
5.5: software something space starting starts status stop storage stored struct supports symbol syntax systems
5.5: take takes things thread throw timeout top topic trailing tuple undefined underlying unicode unlimited
5.5: url useful variants wait waiting well whitespace working writes yes zone
6.0: able accept across action active adding addition addresses agent alias along amount anyway apache appear
6.0: append applicable application arbitrary archive arg around assigned attempt authentication await bar bash
6.0: basic beginning best blocks bound break bucket builds built cached callback care changing checking
6.0: children chunk clobber closed clusters codec comments compare conditions connect connections considered
6.0: constructor continue contributor converted converts copies date debug debugging decode def define defines
6.0: definition deleted dep depends deps described descriptor dev dict digits dir direct disabled distributed
6.0: distribution document domain due edge email encode ends entire err escape evaluates events exact exec
6.0: execute executed execution explicit express expressions extensions external failed fall fd filesystem
6.0: filters fit fleet follow follows force formats formatted formatting free func generator generic give
6.0: going good goroutine greater gyp handled handles handling happen happens heap helper identical identity
6.0: image implement implementations implemented implied imported indicate indicating individual initial
6.0: insert inside installation instruction instructions invocation istanbul js json keyword label latest
6.0: leave licensed likely linked linker links linux literal loaded logging logic looking low lower machine
6.0: making maps marked max meaning members merge messages minimum modified modify negative nested newline
6.0: normally obtain occurs ok ones operate optionally origin outside overridden pages pair panic parsed
6.0: particular parts passing password patch patterns peer perform performance permissions pipe pkg platforms
6.0: points possibly previously printed probably processed processing profile progress promise properties
6.0: purpose query raises ranges raw reason received records refer references regardless related relevant
6.0: remaining remote removes replaced repository represent representing requested reset resolve rest
6.0: resulting rule save seconds sections select semver sent separate shell short side sign signed simd small
6.0: sorted sources spaces split src stale started statement static step steps stores str structure subclass
6.0: suffix supplied symbols symlink sys tags tarball targets task tell template temporary testing thing
6.0: threads three timestamp title together tokens total treat treated trigger turn turtle typically unique
6.0: unit unix unknown updated updates uri usage users usually val variant various vector verify view void
6.0: walk warning whole width window word works
6.5: abort abstract accepted accepts actions addr affect agreed agreement aliases allocate allocated
6.5: allocation alongside alternative alternatively anyone api app appears appended applications applies
6.5: arborist arrays ascending assign assignment assumed assumes attached attempts audit auth author auto aux
6.5: away backend background backwards bad bare become becomes behaviour bin blank blocked bool bounds branch
6.5: broken browser buf bug building builtin bundle calculated callable cancel catch causes certain
6.5: certificates cgo chain channel chars charset checked clean cleanup clients clone closing cmd codes
6.5: collect collection color column come comes commit comparison compatible compile compiled completed
6.5: completely complex compliance component compressed compression concurrent configs configure connected
6.5: consistent consists constants construct consume contained controls conversions cookie copied core
6.5: coroutine counter coverage creation credentials cwd cycle dataplex dataproc day days deal declaration
6.5: declared decoded decoder defining definitions delay depend deployment depth derived descending describes
6.5: describing designed desired detect device difference differences displayed doc dot double download drop
6.5: dump duplicate duration dynamic earlier edges embedded emit emitted enables encryption ensures entirely
6.5: enum env environments escaped exceptions executing exits expect exponent extract fact fallback far fast
6.5: faster features fetched figure filenames fill filtering finally finish firewall fixed float flow fn
6.5: folders forward frames functionality gateway general generally generates generation getting gives glob
6.5: goroutines got governing graph guaranteed handlers hard head health hello high higher hit hold holds
6.5: hostname hub identify ids ignoring important imports inc incoming incomplete infinity initialize
6.5: initialized inputs installing installs integers integrity interactive interfaces internally interpreted
6.5: invoke invoked ip issues iterable iteration iterator jobs join jump keeps kept kernel kms larger law
6.5: legacy libraries limitations limited limits linking live loading locale locations lockfile logger login
6.5: logs looks lookup lowercase ls magic manifest marks matched matter maybe mean membership mock mod model
6.5: msg native neither newer non npmrc numeric obj occur often older omit opened operand operating
6.5: optimization opts org os others overflow owner pack paging panics parallel parses partial past payload
6.5: pending performed performs pick pipeline placed plus pointers pools portion pos positive potentially pre
6.5: precedence precision prefer prepare preserve prevents principal printing prints prior priority problems
6.5: produce programs projects prompt prompted published publishing purposes push quote quoted quotes race
6.5: random reached readable reader ready reasons receive receiver recent recently recommended recursive
6.5: recursively reduce referenced regex regions registered registers reject removing replacement repo
6.5: reported represented resolution resolves respectively responses restore retrieve retry reverse round
6.5: sample satisfy scan schedule scheme scoped scopes secret seen selected selector semantics sending sense
6.5: separator sequences servers session setup several share shift signals sigstore silently skipped slash
6.5: slot slow smaller snapshot sometimes span spanner specifically specification stat stdout strict strip
6.5: structures stuff subclasses subject subnet subsequent subset successful successfully suitable switch
6.5: symbolic symlinks sync tables tail taken tar tasks tells templates terminal terms therefore throws timer
6.5: tool tools traceback track traffic transform transport tries truncated trusted tuples unchanged
6.5: underscores undici unlike unset unsigned unspecified updating upgrade upper uris urls validate var
6.5: verbose virtual volume web whatever words worker workflow world wrap wrapped wrapper wrong yield zip
6.5: zones
7.0: ability acceptable accessed acquire additionally adjust admin advance affects ai alignment alive allowing
7.0: almost although altogether among analysis anthos anywhere apis appends approach architecture artifact
7.0: artifacts ask assembly assert assuming atomic attach attachment attr authorization automatic auxint
7.0: avoids backups backward barrier batch baz begin begins beyond big bigtable bind bindings blob boot bottom
7.0: boundary brand breaking breaks buffered buffers bugs bundled bypass caches calculate callbacks callers
7.0: cancelled canonical canvas capacity carry catalog caused center channels choose chosen chunks closes
7.0: closure cmp cmpconst collected colon combination combined compared comparing compilation completion
7.0: components composer computed computes concrete concurrently conditional configurations conflict
7.0: conflicting console consumed consumer contexts controller convenience convention converting cookies
7.0: copying corresponds counts covered cpu crash cycles dataset decide declarations decoding dedupe deep
7.0: defer deletes deleting deletion dependent deploy descriptors destroyed detail detailed detected detection
7.0: determines developer development differ digest digit directive directives discard dispatch dispatcher
7.0: displays distribute dns docs docstring documented domains dots drive driver dummy easier easily easy edit
7.0: effective effectively efficient emits encountered ending endpoints equality escapes especially
7.0: established eventually exclude exclusive executables executes expand expanded expansion expects expires
7.0: extends extracted factory failures family favor fetching filtered finds fine finished flush forms
7.0: forwarding four fraction front garbage generating giving globals goes grammar granted gri gs guarantee
7.0: guard guess gzip hack half hand handshake healthcare held hence hereby hex hierarchy highest history home
7.0: hook hunk hyphens idea ideal identifiers idle idx ignores images immediate implicit implicitly implies
7.0: impossible incorrect increase increment independent indexed indexes indicated indices infinite inherited
7.0: initialization initially inline inlined inserted insertion inserts instantiate instantiated intercept
7.0: interconnect interpreter interval inventory inverse involved isolated iterate keeping keywords latter
7.0: layout lead leaf leaving legal lets letter letters levels lib lifecycle lineno listen listing literals
7.0: little loader loads locally located locked locks logical loops lot mac mailbox maintain maintenance man
7.0: management manual manually mapped mappings meant mechanism memberships merged metal metastore middle
7.0: migration milliseconds min minimal mirroring ml modes monitoring month mostly mount movdconst moved
7.0: multicast mutated namespaces nearest necessarily networks newlines newly nice normalize notation npx
7.0: obtained occurred offsets onto op opcode opening operands operator ordered ordering oserror outdated
7.0: outputs overhead overlap overwrite overwritten packed packet packets pacote padding params passes
7.0: pathname people perhaps period permitted persistent phase pickle pid places plain plan portable portions
7.0: posix potential power practice preceding preferred prefixed prefixes prerelease presence preserved pretty
7.0: primary processor prod produced produces product production profiles prompting proper protocols provider
7.0: providing proxies prune pubsub pull queued rare rate reach readline rebuild recognized recorded recursion
7.0: redirect redis ref refers reflect regexp regional releases relocation relocations rely remain remainder
7.0: rename repeated replaces replacing reply reporting repr requirements reservation resolving restart resume
7.0: reuse rewrite rm roles rounded rounding route row safely satisfies saved saving say says scc scheduled
7.0: scheduler secure seek seems segment selecting selection sends separately separators serialized series
7.0: shallow shape shown shows shrinkwrap shutdown signatures significant similarly sizes slashes slices
7.0: slightly sockets specifier speed sql square ssh stage statements states stderr stdin stopped stops
7.0: storing strategy streams strictly studio style sub submit succeed success suite sum summary suppress
7.0: syscall systemd tab taking team terminate terminated tested think timezone timing transfer transition
7.0: transitive translate translated trees triggers trust turns twice typ typical uid unified union units
7.0: unnecessary unsafe unused username usual utility validation vectors verification verifies visual vmware
7.0: vulnerable wake walking wants warn warnings whenever wildcard workers workload worth wraps writer year
7.0: yielding yields zeros
7.5: abc aborted accepting accessible accessing accordingly accounts acquired act acts addconst adjacent
7.5: adjusted advisory affected age agree ahead algorithms align aligned allocating allocations alone alter
7.5: alternate android annotations anonymous answer anymore apigee appending applying appropriately approve
7.5: approximation aq aqs architectures archives arena argv arithmetic ascii asked assembler asset assignments
7.5: associate association associations asynchronous asynchronously atomically attachments attempted
7.5: attempting attrs authenticated authorized autoscaling aware backslash backslashes barriers basename
7.5: basically behave behaves behind belongs benefit binaries bins bitmap bitwise blue bodies bootstrap bother
7.5: boundaries brace brackets branches breakpoint browsers buckets builder bump bunch bundles bytecode
7.5: caching calculation came canceled cancellation candidate cap capabilities capability capture careful
7.5: category caught causing cc ccompiler central cert chance checker checksum choice ci cipher circular
7.5: cleared clears cli clock cls coerce collecting collector columns combine coming commas commits commonly
7.5: compact compares comparisons compiles compiling completes complicated comply composite compress
7.5: computation computing concatenation conflicts conn connecting connectivity connector consecutive
7.5: consistency consisting constraint constraints constructed construction constructs contact contributors
7.5: controlled convenient correspond cost couldn course cover credential cross css daemon darwin dashes
7.5: databases datetime datetimes dead deadline deadlock debugger declare decodes decorator deeper defaulting
7.5: deferred definitely delimiter delivery delta denied deny depended deployments descriptions dest destroy
7.5: detector deterministic devices dictionaries differently differs difficult direction dirs disables
7.5: discarded discussion disks dist distinct distinguish distributions distutils divide division doctest
7.5: dotted dropped duplicated duplicates dynamically effects effort eliminate elsewhere emulated enclosing
7.5: encoder encodes encodings encrypted ended enforce engines enter entered enterprise entity epoch equals
7.5: escaping etag eval evaluate evaluated evaluation everyone exceed excluded excluding executor exempt
7.5: exited exiting exp expensive expired explanation exports exposed exposes expressed extend extracting
7.5: extraneous extremely factor failing fake fatal fault feed fewer filled finder finite fire firebase
7.5: firestore fits fixer fixes floating floats forced forces fork formatter former foundation fragment
7.5: framework frozen fs fullname funding gateways gc gcc getter gid github globally globs goal grab granular
7.5: grow guarantees guide hall happened hardware hashes helpful helps heuristic hexadecimal hidden hint
7.5: hoisted holding honored hour hours html human iap identified identifies identifying iff immutable
7.5: implementing importing improve inclusive incompatible inconsistent incorrectly indent indentation
7.5: indirect inexact inf infer inherit initializes inlining inner inspect instantiating instantiation
7.5: intentionally interceptor interconnects interesting intermediate internet interpret introduce introduced
7.5: invariant invokes invoking isinstance iterating joined junk kafka keyed keyring kinds knows kubernetes
7.5: kwargs lake lambda largest late layer leak learn leaves lengths libc licenses limitation linear linkname
7.5: listener listeners listening lives locals logged longest lookups lose lost lowest lrucache lstat machines
7.5: maintained malformed manages managing manipulate marker marking marshal master matcher matters mdempsky
7.5: meaningful memo memorystore mentioned merging meta metrics microsoft minus minutes mismatch mixed mocked
7.5: models modification modifying modulo moment movbstore moves moving movvconst movwconst movwstore ms multi
7.5: multipart mutex naming nesting netapp nonzero normalized nosplit notable notes notification npmignore
7.5: obtaining occurrence octets odd okay opaque opcodes openssl operates operators ops optimize optimized
7.5: ordinary organizations originally outer overall overriding overview packument pad parentheses parents
7.5: partially particularly partition patched patches pc permit person physical pieces placeholder pointing
7.5: poll pop populated ports positions possibility post postinstall preceded predefined preemption preference
7.5: preinstall prepend preserves presumably primarily primitive proceed profiler profiling prompts propagate
7.5: protect protected protection providers pruned pure pushed puts putting py pyc queries question queues
7.5: quickly quite quota ran ratio reachable reaches readdir realpath reasonable reasonably receives receiving
7.5: recency recognize recover recurse red redundant referrer refresh refs registries reify rejected
7.5: relationship relationships released reload remains remember repeat repeatedly repositories representable
7.5: requirement requiring res resets respect respective responsible restricted restriction restrictions
7.5: retain retrieved retrieves reused revision revisions revoke risk roots rounds router routers routes
7.5: routine routines routing rows rune safety said samples satisfied saves scale scanning schema screen
7.5: searched searches searching secrets seed seem sees segments selectors selects sensitive sentinel serve
7.5: serves shame sharing shifted shifts shortcut shorter shorthand showing signing simpler simplified
7.5: simulate simultaneously site situation situations skipping skips sleep slots slower smallest snapshots
7.5: socks sole solution someone somewhat somewhere soon sorting sparse spawn specialized specs splits
7.5: splitting ssl stable stacks startup statistics stats stripped stripping strong structs structured
7.5: subdirectories submitted subnetwork subprocess subscription substitutions substring subtype sufficient
7.5: suffixes super supply supporting supposed swap sweep switches synchronous synchronously tabs tagged tcp
7.5: technically temp temporarily term terminates termination textual th third threshold thrown tick timers
7.5: tlog tls toolchain topics traces tracing tracker tracking trailer trailers transaction transitions
7.5: translation traversal traverse treats tried triggered trim truncate ts turned typed uintptr umask unaware
7.5: uncompressed understand unexpected unexported unfortunately uninstall universal unlikely unpack
7.5: unsupported untyped upload usable vars verified visible visit vms volumes vpc waits walks wanted weak
7.5: week weird whereas white widely win wins wish workaround workforce workloads worry wrapping writable
7.5: xcode zeroed zeroes
8.0: abbrev abs absent accelerator accesses accidentally accumulate accurate addressable adduser advanced
8.0: advantage agents aka allocates allocator ambiguous analyze ancestor ancestors andconst angle annotated
8.0: annotation appeared approval arbitrarily area assertion assets assigns assumption attack audio
8.0: authenticate authenticator authority automated average avoiding azure backing balancer balancing barry
8.0: bases basis belong belonging ben benchmark bigger binauthz bitbucket bogus box braces bubble buffering ca
8.0: callee captured cas certs challenge chang charge checkers chmod chunked ciphertext claim claims clause
8.0: cleaned clobbering closest coefficient colors combinations combining comparable comparator comparators
8.0: compilers complement compliant concatenated concurrency conditionally conf configures configuring conform
8.0: confusing conjunction connects conservative consistently constrained consumes containers contiguous
8.0: continuation continues continuous coordinates coroutines counting criteria ctx curl curve customer
8.0: customize cut cygwin dash dataclass debian decision decompress decorated dedicated defects delegate
8.0: delegated delimited delimiters denotes deployed deploying deprecate deprecation derive design
8.0: destinations determining developers dial dicts diffs dirname disabling discovered distance docker
8.0: docstrings downloaded downloading dpkg drain drawing drops dry echo efficiently elem elif embed embedding
8.0: emitting enabling enclosed encounter encrypt endings ensuring entities environ essentially establish
8.0: europe ex exceeded exceeds exclusion executions exhausted existence expands expansions experiment
8.0: expiration explain explaining expose expr extent extglob extracts fairly falls fds fee fetches filestore
8.0: finalizer five flat flushed folding forbidden foreground forever forget fp fractional freed frequency
8.0: fresh fun funcs fund furnished futures gather gen generators getattr globstar gone grant grouped growth
8.0: handy hashing heading hi historical historically hits hitting hoisting hooks hosts hot huge hyphen
8.0: ideally illegal inclusion increases increasing incremental incremented indented indicator indirectly
8.0: inferred infringe initializer insensitive insights integration intent interceptors interested
8.0: interpretation ints invocations io ips isomorphic issued issuer iterations java javascript journal kill
8.0: lack lacks languages latency lazily lazy ld lhs life lifetime lite lo localhost locate locking loggers
8.0: looked loss lots macro mail mainly maintainers makefile manner mantissa markers markobject masked math
8.0: measure media merges met metaclass metric minimatch minimize mix mixin mkdir mmap modifications monitor
8.0: montgomery mounted movhstore movwload mtime multiplication mutate mutually nanoseconds natural near
8.0: negated net netmask networking newest nicer nobody nopt normalization notably notify npa num oauth
8.0: observe observed obsolete occurrences octal octet opens opposed opposite opt optimizations overlapped
8.0: overlapping overwrites owned ownership padded parens parsers pathnames pause paused peers percent
8.0: percentage perf perky permits permutation persist persons phi physically pickling pin pinned pipes
8.0: plaintext plane play plugin policycontroller populate possibilities practical prec precise predicate
8.0: prepared prepended presented preventing prime printable probe producing prog props proto provenance
8.0: provisional ps pseudo punctuation pushes quick quoting qux races raising rarely readlink readonly realm
8.0: recommend recording recovery redirects reduced reduces refactor referred referring refuse reg regression
8.0: rejects rekor relatively relax reliable reliably relies removal renamed replication representations req
8.0: reservations reserve resize resolver resp respond responsibility restored restores restrict retained
8.0: retention retries rev rewrites rewritten ring rod rollback rollout room rotate rotation roughly runes
8.0: sampling saw scalar scanned scanner scans scenarios schedules scheduling schemes scratch secondary sell
8.0: semantic sep separating sequential serialization serialize serving setter sha shortest significantly
8.0: silent simplify soft solaris sorts spans specially spill staged standalone stateful stay std stopping
8.0: streaming strongly stub subcommand subdirectory sublicense subnets subsequently substantial substitution
8.0: subtract subtree succeeded succeeds sun suppressed surrogate symlinked synchronization synthetic tarballs
8.0: teams tensorboard terminating terminator texts thanks threading threat throwing tier timeouts timespec
8.0: timestamps tmp tokenize topmost tpus tracks translates trick triggering triple trivial ttl typing uint
8.0: unable unavailable unconditionally undeclared underflow underscore undo undocumented unescaped unlink
8.0: unlock unmarshal unmodified unpacked unpacking unquoted unreachable unreviewed untouched unusable
8.0: uppercase upstream utilities utilization vagg validated validity vary vendor vertex views vision visited
8.0: vm vpn vulnerability warns wasm weight wide wildcards wire wrappers wrote ws years zlib zonal
`
