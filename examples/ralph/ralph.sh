#!/usr/bin/env bash
# ralph.sh: an unattended `claude -p` loop, one fresh session per task, that
# learns from code review through flowmem. The capture hook records the
# lessons of each NEEDS_WORK review in .flow/memory/pitfalls.md; before each
# task the loop asks `flowmem memory prime` for the lessons that fit it and
# puts them in the prompt. Each task done is committed, so the next task's
# review sees only its own changes. Run it from the root of the project's git
# work tree. See README.md.
set -euo pipefail

# ---- Settings: edit here, or set them in the environment -------------------
# The project's test command. Sessions may run it (and the review command)
# without asking; the prompt tells the model to run it. Empty: guessed from
# the project (make test, go test ./..., npm test, cargo test, pytest).
TEST_CMD=${TEST_CMD:-}
# The review command; the session runs "$REVIEW_CMD <task-id>". It must exist
# before the loop starts (examples/ralph/impl-review is one to copy).
REVIEW_CMD=${REVIEW_CMD:-./scripts/impl-review}
# ----------------------------------------------------------------------------

usage() {
	cat <<'EOF'
Usage: ralph.sh [-d] [-f TASKS_FILE] [-n MAX_ITERATIONS] [-a MAX_ATTEMPTS] ["ID: TITLE" ...]

Runs `claude -p` once per task, in order, from the project root (the current
folder), with the lessons flowmem learned from earlier reviews in the prompt.
Tasks are "<task-id>: <title>" lines (blank lines and # comments are skipped),
from the arguments or else from TASKS_FILE (default: tasks.txt).

A task is done when the session's final message ends with
<promise>DONE</promise> (the prompt asks for it once the review says SHIP);
its changes are then committed as "<task-id>: <title>". It is run again in a
fresh session otherwise, up to MAX_ATTEMPTS times.
<promise>BLOCKED</promise>, a failed session, or running out of attempts or
iterations stops the loop. Tasks already listed in $RALPH_DIR/done.txt are
skipped, so running the loop again resumes it.

The loop starts only on a clean git work tree (everything committed), so
that no change of yours goes into a task's commit or its review; the one
exception is the unfinished work of the task it resumes.

Options:
  -d        (or --dry-run) run every check, print the next task's prompt
            and stop: no session (no model call), nothing written
  -f FILE   tasks file (default: tasks.txt)
  -n N      at most N sessions in this run (default: $MAX_ITERATIONS or 10)
  -a N      at most N sessions per task (default: $MAX_ATTEMPTS or 3)
  -h        this help

Environment:
  CLAUDE_BIN           the Claude Code client (default: claude)
  CLAUDE_ARGS          extra arguments for claude, split on spaces
                       (e.g. "--model sonnet --max-budget-usd 2")
  RALPH_ALLOWED_TOOLS  --allowedTools for each session (default: "Read,Edit,
                       Write,Glob,Grep,Bash($TEST_CMD:*),Bash($REVIEW_CMD:*),
                       Bash(flowmem memory read:*), and the hook's second
                       look: Bash(flowmem memory judge:*),
                       Bash(flowmem memory archive:*), Bash(flowmem memory add:*),
                       Bash(flowmem memory merge:*))
  TEST_CMD             the project's test command (default: guessed, see the
                       top of this script)
  REVIEW_CMD           the review command; the session runs "$REVIEW_CMD <task-id>"
                       (default: ./scripts/impl-review; checked before the first
                       session)
  RALPH_PROMPT         prompt template (default: prompt-work.md next to this script)
  RALPH_DIR            state and logs (default: .ralph)
  FLOWMEM              the flowmem binary (default: flowmem)
  RALPH_SKIP_DOCTOR=1  do not run `flowmem doctor` before the first task

Exit status: 0 every task done, 1 stopped before that, 64 usage error.

Example:
  flowmem init --enable --install
  printf '%s\n' 'fn-1.1: add GET /users with pagination' \
                'fn-1.2: add GET /orders with pagination' > tasks.txt
  git add -A && git commit -m 'ralph: tasks'
  examples/ralph/ralph.sh --dry-run
  REVIEW_CMD="flowctl codex impl-review" \
  CLAUDE_ARGS="--model sonnet --max-budget-usd 2" \
    examples/ralph/ralph.sh -n 5
EOF
}

log() {
	printf 'ralph: %s\n' "$*" >&2
	if [[ -n ${RUN_DIR:-} ]]; then
		printf '%s %s\n' "$(date '+%Y-%m-%dT%H:%M:%S')" "$*" >>"$RUN_DIR/ralph.log"
	fi
}

die() {
	log "$*"
	exit 1
}

usage_error() {
	printf 'ralph: %s\n' "$*" >&2
	printf 'Run "%s -h" for help.\n' "$0" >&2
	exit 64
}

is_count() { [[ $1 =~ ^[1-9][0-9]*$ ]]; }

# fill TEMPLATE PLACEHOLDER VALUE replaces every PLACEHOLDER with VALUE.
# Prefix/suffix trimming instead of ${t//p/r}: bash 5.2 reads "&" in r as
# the match, and lesson text may hold any character. VALUE is not rescanned.
fill() {
	local rest=$1 placeholder=$2 value=$3 out=""
	while [[ $rest == *"$placeholder"* ]]; do
		out+="${rest%%"$placeholder"*}$value"
		rest=${rest#*"$placeholder"}
	done
	printf '%s' "$out$rest"
}

SCRIPT_DIR=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
CLAUDE_BIN=${CLAUDE_BIN:-claude}
CLAUDE_ARGS=${CLAUDE_ARGS:-}
# guess_tests prints the usual test command of the project in the current
# folder, or nothing.
guess_tests() {
	if [[ -f Makefile ]] && grep -qE '^test:' Makefile; then
		echo "make test"
	elif [[ -f go.mod ]]; then
		echo "go test ./..."
	elif [[ -f package.json ]]; then
		echo "npm test"
	elif [[ -f Cargo.toml ]]; then
		echo "cargo test"
	elif [[ -f pyproject.toml || -f pytest.ini || -f setup.py ]]; then
		echo "pytest"
	fi
}
TEST_CMD=${TEST_CMD:-$(guess_tests)}
test_tool=""
test_words="the way this project runs them"
if [[ -n $TEST_CMD ]]; then
	test_tool="Bash($TEST_CMD:*),"
	test_words="\`$TEST_CMD\`"
fi
own_tools=${RALPH_ALLOWED_TOOLS:-}
RALPH_ALLOWED_TOOLS=${RALPH_ALLOWED_TOOLS:-"Read,Edit,Write,Glob,Grep,${test_tool}Bash($REVIEW_CMD:*),Bash(flowmem memory read:*),Bash(flowmem memory judge:*),Bash(flowmem memory archive:*),Bash(flowmem memory add:*),Bash(flowmem memory merge:*)"}
RALPH_PROMPT=${RALPH_PROMPT:-$SCRIPT_DIR/prompt-work.md}
RALPH_DIR=${RALPH_DIR:-.ralph}
FLOWMEM=${FLOWMEM:-flowmem}
MAX_ITERATIONS=${MAX_ITERATIONS:-10}
MAX_ATTEMPTS=${MAX_ATTEMPTS:-3}
tasks_file=tasks.txt
dry_run=0

# getopts has no long options; --help and --dry-run are common enough to
# accept anyway. A task is "ID: TITLE", never one of them.
args=()
for a in "$@"; do
	case $a in
	--help) args+=(-h) ;;
	--dry-run) args+=(-d) ;;
	--) args+=("$a") ;;
	--*) usage_error "unknown option $a" ;;
	*) args+=("$a") ;;
	esac
done
set -- ${args[@]+"${args[@]}"}
while getopts ':df:n:a:h' opt; do
	case $opt in
	d) dry_run=1 ;;
	f) tasks_file=$OPTARG ;;
	n) MAX_ITERATIONS=$OPTARG ;;
	a) MAX_ATTEMPTS=$OPTARG ;;
	h)
		usage
		exit 0
		;;
	:) usage_error "-$OPTARG needs a value" ;;
	*) usage_error "unknown option -$OPTARG" ;;
	esac
done
shift $((OPTIND - 1))
is_count "$MAX_ITERATIONS" || usage_error "max iterations must be a positive integer, not '$MAX_ITERATIONS'"
is_count "$MAX_ATTEMPTS" || usage_error "max attempts must be a positive integer, not '$MAX_ATTEMPTS'"

# The task list: arguments, else the file. Read it all up front so no
# session can consume the loop's stdin.
lines=()
if (($# > 0)); then
	lines=("$@")
else
	[[ -f $tasks_file ]] || usage_error "no tasks: give \"ID: TITLE\" arguments or a tasks file ($tasks_file not found)"
	while IFS= read -r line || [[ -n $line ]]; do
		lines+=("$line")
	done <"$tasks_file"
fi
ids=()
titles=()
skip_re='^[[:space:]]*(#|$)'
# The id names log files and goes into FLOW_TASK_ID: keep it plain.
task_re='^[[:space:]]*([A-Za-z0-9][A-Za-z0-9._-]*):[[:space:]]*(.*[^[:space:]])[[:space:]]*$'
for line in ${lines[@]+"${lines[@]}"}; do
	line=${line%$'\r'}
	[[ $line =~ $skip_re ]] && continue
	[[ $line =~ $task_re ]] ||
		usage_error "not an \"ID: TITLE\" task: '$line'"
	ids+=("${BASH_REMATCH[1]}")
	titles+=("${BASH_REMATCH[2]}")
done
((${#ids[@]} > 0)) || usage_error "the task list is empty"

[[ -f $RALPH_PROMPT ]] || die "prompt template $RALPH_PROMPT not found"
# Every session is paid for: check what it will need before the first one.
read -r -a review_words <<<"$REVIEW_CMD"
review_prog=${review_words[0]:-}
if [[ -z $review_prog ]]; then
	die "REVIEW_CMD is empty: set it to the command that reviews a task (see README.md)"
elif [[ $review_prog == */* ]]; then
	[[ -f $review_prog && -x $review_prog ]] ||
		die "review command $review_prog (REVIEW_CMD=\"$REVIEW_CMD\") is not an executable file here; copy the example (mkdir -p scripts && cp $SCRIPT_DIR/impl-review scripts/ && chmod +x scripts/impl-review) or set REVIEW_CMD"
else
	command -v "$review_prog" >/dev/null ||
		die "review command $review_prog (REVIEW_CMD=\"$REVIEW_CMD\") is not on PATH; install it or set REVIEW_CMD"
fi
git rev-parse --is-inside-work-tree >/dev/null 2>&1 ||
	die "$(pwd) is not in a git work tree: the loop commits each task it finishes (git init, and commit what is there first)"
command -v "$CLAUDE_BIN" >/dev/null || die "Claude Code client '$CLAUDE_BIN' not found (set CLAUDE_BIN)"
command -v "$FLOWMEM" >/dev/null || die "flowmem not found (set FLOWMEM, or from a flowmem checkout: make install, and put \$(go env GOBIN), else \$(go env GOPATH)/bin, on PATH)"
# The hook learns only from a command it takes for a review
# (capture.review_patterns). Ask it, in a scratch project with this
# project's settings, whether it would read "$REVIEW_CMD <task-id>" as one:
# a SHIP from a recognised review is logged, from anything else it is not.
json_string() {
	local s=${1//\\/\\\\}
	s=${s//\"/\\\"}
	printf '"%s"' "$s"
}
probe=$(mktemp -d)
mkdir -p "$probe/.flow"
# Memory on there whatever it is here: doctor reports that on its own.
if cp .flow/config.json "$probe/.flow/config.json" 2>/dev/null &&
	(cd "$probe" && "$FLOWMEM" config set memory.enabled true >/dev/null 2>&1); then
	printf '{"hook_event_name":"PostToolUse","tool_name":"Bash","cwd":%s,"tool_input":{"command":%s},"tool_response":{"stdout":"<verdict>SHIP</verdict>\\n","stderr":""}}\n' \
		"$(json_string "$probe")" "$(json_string "$REVIEW_CMD ${ids[0]}")" |
		(cd "$probe" && env -u FLOWMEM_DISABLE -u FLOW_TASK_ID "$FLOWMEM" hook >/dev/null 2>&1) || true
	if [[ ! -s $probe/.flow/memory/reviews.jsonl ]]; then
		rm -rf "$probe"
		die "flowmem's hook does not take \"$REVIEW_CMD ${ids[0]}\" for a review (capture.review_patterns), so the loop would learn nothing: give the command a name with 'review' in it, or add a pattern (flowmem config get capture.review_patterns; see README.md)"
	fi
fi
rm -rf "$probe"
# A loop without the hook learns nothing and a loop without memory recalls
# nothing: check both before spending money on the first session.
if [[ ${RALPH_SKIP_DOCTOR:-} != 1 ]]; then
	doctor_out=$("$FLOWMEM" doctor 2>&1) ||
		die "flowmem doctor found problems; fix them (or set RALPH_SKIP_DOCTOR=1):"$'\n'"$doctor_out"
fi
template=$(<"$RALPH_PROMPT")
read -r -a claude_args <<<"$CLAUDE_ARGS"
done_file=$RALPH_DIR/done.txt
# current holds the task a session works on and the commit it started
# from, until the task is committed: a run that stopped in the middle of a
# task left that task's changes uncommitted, and the next run resumes them.
current_file=$RALPH_DIR/current

# next_task sets next to the index of the first task not in done.txt, or -1.
next_task() {
	next=-1
	local i
	for i in "${!ids[@]}"; do
		if ! grep -qxF -- "${ids[i]}" "$done_file" 2>/dev/null; then
			next=$i
			return
		fi
	done
}

head_rev() { git rev-parse -q --verify HEAD || echo none; }

# The loop commits each finished task with `git add -A`, and the review
# reads the task's work as `git diff HEAD`: a change of the user's left in
# the tree would go into the first task's commit and its review. Refused,
# not worked around (committing only the session's files cannot split a
# file both touched): the user commits or stashes their work first, as for
# git rebase. Last of the checks, so the setup is fixed before it is
# committed.
next_task
if ((next >= 0)); then
	changed=()
	while IFS= read -r line; do
		changed+=("${line:3}")
	done < <(git status --porcelain)
	if ((${#changed[@]} > 0)); then
		if [[ -f $current_file && $(<"$current_file") == "${ids[next]} $(head_rev)" ]]; then
			log "resuming ${ids[next]} with the changes its last session left uncommitted"
		else
			shown=$(printf '%s, ' "${changed[@]:0:5}")
			shown=${shown%, }
			((${#changed[@]} <= 5)) || shown+=" and $((${#changed[@]} - 5)) more"
			die "the work tree has uncommitted changes ($shown): the loop commits each finished task with git add -A, so they would go into ${ids[next]}'s commit and its review; commit them first (git add -A && git commit -m 'ralph setup'), or set them aside (git stash -u)"
		fi
	fi
fi

# build_prompt ID TITLE ERRFILE [PRIME-OPTION...] sets prompt: the template
# filled with the task and the lessons memory prime finds for it (fresh for
# every session: those of earlier sessions, an earlier attempt at this
# task included, are in it). Prime's stderr (a note when no lesson fits,
# or why it failed) goes to ERRFILE and the loop says it in its own words.
build_prompt() {
	local id=$1 title=$2 errfile=$3 memory
	shift 3
	memory=$("$FLOWMEM" memory prime "$@" "$id: $title" 2>"$errfile") ||
		die "flowmem memory prime failed: $(<"$errfile")"
	if [[ -z $memory ]]; then
		log "no lesson in memory fits $id yet"
		memory=$'## Relevant Memory\nNo relevant entries in project memory.'
	fi
	prompt=$(fill "$template" '{{TASK_ID}}' "$id")
	prompt=$(fill "$prompt" '{{TASK_TITLE}}' "$title")
	prompt=$(fill "$prompt" '{{REVIEW_CMD}}' "$REVIEW_CMD")
	prompt=$(fill "$prompt" '{{TEST_CMD}}' "$test_words")
	prompt=$(fill "$prompt" '{{MEMORY}}' "$memory")
}

# The prompt asks each session to run the tests, but claude -p refuses a
# command no rule allows: with none guessed or set, say so before the first
# session is paid for.
if [[ -z $TEST_CMD && -z $own_tools ]]; then
	log "warning: no test command found here (a Makefile with a test target, go.mod, package.json, Cargo.toml, pyproject.toml): the sessions may not run the tests; set TEST_CMD to the project's test command"
fi

if ((dry_run)); then
	if ((next < 0)); then
		log "dry run: every check passed; every task is in $done_file already"
		exit 0
	fi
	# --no-record: this prompt reaches no model, so memory audit must not
	# count its lessons as handed over.
	errfile=$(mktemp)
	trap 'rm -f "$errfile"' EXIT
	build_prompt "${ids[next]}" "${titles[next]}" "$errfile" --no-record
	printf '%s\n' "$prompt"
	log "dry run: every check passed; the next session would run ${ids[next]} with the prompt printed on stdout and --allowedTools \"$RALPH_ALLOWED_TOOLS\"; no session started, nothing written"
	exit 0
fi

mkdir -p "$RALPH_DIR/runs"
# The loop's state and logs stay out of the task commits.
[[ -f $RALPH_DIR/.gitignore ]] || printf '*\n' >"$RALPH_DIR/.gitignore"
touch "$done_file"
RUN_DIR=$RALPH_DIR/runs/$(date '+%Y%m%d-%H%M%S')-$$
mkdir "$RUN_DIR"
log "run log: $RUN_DIR (${#ids[@]} tasks, at most $MAX_ITERATIONS sessions, $MAX_ATTEMPTS per task)"

# FLOW_RALPH tells hooks and scripts that no person is watching (as
# flow-next's loop does).
export FLOW_RALPH=1

iteration=0
last_id=""
attempt=0
while :; do
	# The next task is the first one not done yet.
	next_task
	if ((next < 0)); then
		log "all ${#ids[@]} tasks done"
		exit 0
	fi
	id=${ids[next]}
	title=${titles[next]}
	if ((iteration >= MAX_ITERATIONS)); then
		die "stopped after $iteration sessions (-n $MAX_ITERATIONS); next task: $id"
	fi
	if [[ $id == "$last_id" ]]; then
		attempt=$((attempt + 1))
	else
		last_id=$id
		attempt=1
	fi
	if ((attempt > MAX_ATTEMPTS)); then
		die "$id not done after $MAX_ATTEMPTS sessions; see $RUN_DIR"
	fi
	iteration=$((iteration + 1))
	base=$RUN_DIR/$(printf '%03d' "$iteration")-$id

	build_prompt "$id" "$title" "$base.prime.stderr"
	printf '%s\n' "$prompt" >"$base.prompt.md"
	printf '%s %s\n' "$id" "$(head_rev)" >"$current_file"

	log "session $iteration: $id (attempt $attempt): $title"
	# FLOW_TASK_ID reaches the hook: it files the lessons under this task
	# when the review command and text do not name one.
	rc=0
	FLOW_TASK_ID=$id "$CLAUDE_BIN" -p "$prompt" --output-format json \
		--allowedTools "$RALPH_ALLOWED_TOOLS" ${claude_args[@]+"${claude_args[@]}"} \
		</dev/null >"$base.json" 2>"$base.stderr" || rc=$?
	if ((rc != 0)); then
		die "session $iteration ($id): claude exited with status $rc; see $base.stderr and $base.json"
	fi
	if grep -Eq '"is_error"[[:space:]]*:[[:space:]]*true' "$base.json"; then
		die "session $iteration ($id) ended in error; see $base.json"
	fi

	# Tools outside RALPH_ALLOWED_TOOLS are refused, not asked about: say so,
	# since a refused test run or review is a likely cause of a stuck task.
	if grep -qF '"permission_denials"' "$base.json" && ! grep -Eq '"permission_denials"[[:space:]]*:[[:space:]]*\[\]' "$base.json"; then
		log "warning: session $iteration was refused tools outside RALPH_ALLOWED_TOOLS; see permission_denials in $base.json"
	fi

	# The JSON result holds the final message; the markers are plain text in it.
	if grep -qF '<promise>BLOCKED</promise>' "$base.json"; then
		die "$id is blocked; the session's reason is in $base.json"
	elif grep -qF '<promise>DONE</promise>' "$base.json"; then
		# One commit per task: the next task's review (git diff HEAD) sees
		# only its own changes. The lessons the hook wrote go with it.
		git add -A || die "git add failed after $id; commit by hand, then add $id to $done_file"
		if git diff --cached --quiet; then
			log "$id done (no changes to commit)"
		else
			git commit -q -m "$id: $title" ||
				die "git commit failed after $id (is user.name/user.email set?); commit by hand, then add $id to $done_file"
			log "$id done; committed $(git rev-parse --short HEAD)"
		fi
		printf '%s\n' "$id" >>"$done_file"
		rm -f "$current_file"
	else
		log "$id not done yet; it runs again in a fresh session"
	fi
done
