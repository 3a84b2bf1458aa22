package install

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"time"

	"github.com/flowmem/flowmem/internal/atomicfile"
)

// excludeMark precedes the line install --local adds to the clone's
// info/exclude, so uninstall --local takes out its own line and no other.
const excludeMark = "# flowmem install --local: this machine's hook path stays out of git"

// gitExclude is where git keeps this clone's own ignore rules and the line
// that ignores file there, or ok false when file is not in a git work tree,
// git is not installed, or git ignores file already (the project's
// .gitignore, a global one).
func gitExclude(file string) (exclude, line string, ignored, tracked, ok bool) {
	dir, base := filepath.Dir(file), filepath.Base(file)
	if _, err := os.Stat(dir); err != nil {
		dir = filepath.Dir(dir) // .claude/ not made yet
		base = filepath.Join(filepath.Base(filepath.Dir(file)), base)
	}
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
	defer cancel()
	out, err := exec.CommandContext(ctx, "git", "-C", dir, "rev-parse", "--show-prefix", "--git-path", "info/exclude").Output()
	if err != nil {
		return "", "", false, false, false // not a work tree, or no git
	}
	prefix, exclude, found := strings.Cut(strings.TrimRight(string(out), "\n"), "\n")
	if !found { // at the top of the work tree the prefix line is empty
		prefix, exclude = "", prefix
	}
	if !filepath.IsAbs(exclude) {
		exclude = filepath.Join(dir, exclude)
	}
	line = "/" + prefix + filepath.ToSlash(base)
	err = exec.CommandContext(ctx, "git", "-C", dir, "check-ignore", "-q", "--", base).Run()
	if ee, isExit := errors.AsType[*exec.ExitError](err); err != nil && (!isExit || ee.ExitCode() != 1) {
		return "", "", false, false, false
	}
	// Ignore rules do not apply to a file git already tracks.
	files, _ := exec.CommandContext(ctx, "git", "-C", dir, "ls-files", "--", base).Output()
	return exclude, line, err == nil, len(files) > 0, true
}

// keepOutOfGit makes git ignore the local settings file in this clone when
// nothing else does: it holds this machine's absolute hook path, and a
// `git add -A` (a Ralph loop commits every task that way) would otherwise
// share that path with the whole team, whose hooks would then fail. The
// rule goes to the clone's own info/exclude, which no one else sees.
func keepOutOfGit(file string, dryRun bool) (*Change, string, error) {
	exclude, line, ignored, tracked, ok := gitExclude(file)
	warning := ""
	if tracked {
		// The rule below takes effect once git no longer tracks it.
		rel := line[1:]
		warning = fmt.Sprintf("%s is committed to git, so this machine's hook path reaches everyone who pulls, and their hook fails. Fix: git rm --cached %s && git commit -m 'stop sharing %s'", rel, rel, rel)
	}
	if !ok || ignored {
		return nil, warning, nil
	}
	before, exists, err := readFile(exclude)
	if err != nil {
		return nil, warning, err
	}
	after := before
	if len(after) > 0 && after[len(after)-1] != '\n' {
		after = append(after, '\n')
	}
	after = append(after, excludeMark+"\n"+line+"\n"...)
	c := planChange(exclude, exclude, before, after, exists, dryRun)
	c.Reason = "ignores " + line[1:]
	if !dryRun {
		// atomicfile.Write makes the folder (info/) when it is missing.
		if err := atomicfile.Write(exclude, after, 0o644); err != nil {
			return nil, warning, fmt.Errorf("keep %s out of git: %w", file, err)
		}
	}
	return &c, warning, nil
}

// forgetOutOfGit takes out the rule keepOutOfGit added, if it is there.
func forgetOutOfGit(file string, dryRun bool) (*Change, error) {
	exclude, line, _, _, ok := gitExclude(file)
	if !ok {
		return nil, nil
	}
	before, exists, err := readFile(exclude)
	if err != nil || !exists {
		return nil, err
	}
	ours := []byte(excludeMark + "\n" + line + "\n")
	i := bytes.Index(before, ours)
	if i < 0 {
		return nil, nil
	}
	after := append(before[:i:i], before[i+len(ours):]...)
	c := planChange(exclude, exclude, before, after, exists, dryRun)
	c.Reason = "no longer ignores " + line[1:]
	if !dryRun {
		if err := atomicfile.Write(exclude, after, 0o644); err != nil {
			return nil, fmt.Errorf("write %s: %w", exclude, err)
		}
	}
	return &c, nil
}
