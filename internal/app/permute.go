package app

import (
	"fmt"
	"slices"
	"strconv"
	"strings"

	"github.com/urfave/cli/v2"
)

// permute moves flags that follow positional arguments in front of them.
// urfave/cli v2 stops parsing flags at the first positional argument, but
// people write `memory add --type pitfall "text" --fix "..."`. A value flag
// given twice with different values is a usage error: urfave/cli would keep
// the last one silently (`--type pitfall … --type convention`).
func permute(cmds []*cli.Command, args []string) ([]string, error) {
	if len(args) < 2 {
		return args, nil
	}
	out := []string{args[0]}
	rest := args[1:]
	var leaf *cli.Command
	// Walk the command path: leading words that name (sub)commands.
	for len(rest) > 0 {
		if strings.HasPrefix(rest[0], "-") {
			break
		}
		next := find(cmds, rest[0])
		if next == nil {
			break
		}
		out = append(out, rest[0])
		rest = rest[1:]
		leaf, cmds = next, next.Subcommands
	}
	if leaf == nil || len(leaf.Subcommands) > 0 {
		return append(out, rest...), nil
	}
	var flags, positional []string
	given := map[string]string{} // a single-value flag's full name → its value
	for i := 0; i < len(rest); i++ {
		a := rest[i]
		switch {
		case a == "--":
			positional = append(positional, rest[i:]...)
			i = len(rest)
		case a == "--help" || a == "-h":
			// Help for the command itself, whatever else was typed:
			// with arguments left, urfave/cli would look the first one up
			// as a subcommand ("unknown command").
			return append(out, "--help"), nil
		case negativeNumber(a):
			// A value (config set recall.limit -5), not a flag: no
			// flag is named by digits.
			positional = append(positional, a)
		case len(a) > 1 && strings.HasPrefix(a, "-"):
			a = sliceFlagName(leaf, a)
			flags = append(flags, a)
			name, value, hasValue := strings.Cut(strings.TrimLeft(a, "-"), "=")
			if !hasValue && takesValue(leaf, name) && i+1 < len(rest) {
				value, hasValue = rest[i+1], true
				flags = append(flags, value)
				i++
			}
			if f := single(leaf, name); f != "" && hasValue {
				if prev, ok := given[f]; ok && prev != value {
					// urfave/cli names a command only once it runs.
					leaf.HelpName = "flowmem " + strings.Join(out[1:], " ")
					return nil, &usageError{msg: fmt.Sprintf("--%s given twice (%s, %s): give it once", f, prev, value), cmd: leaf}
				}
				given[f] = value
			}
		default:
			positional = append(positional, a)
		}
	}
	out = append(out, flags...)
	dashed := slices.ContainsFunc(positional, func(a string) bool { return strings.HasPrefix(a, "-") })
	if len(positional) > 0 && positional[0] != "--" && (len(flags) > 0 || dashed) {
		// Keep values that start with "-" from being read as flags.
		out = append(out, "--")
	}
	return append(out, positional...), nil
}

// negativeNumber: a is a number below zero, such as -5 or -0.5.
func negativeNumber(a string) bool {
	_, err := strconv.ParseFloat(a, 64)
	return err == nil && strings.HasPrefix(a, "-") && len(a) > 1 && a[1] >= '0' && a[1] <= '9'
}

// single is the full name of c's flag called name when it takes one value
// (not a switch, not a list), else "".
func single(c *cli.Command, name string) string {
	switch f := flagNamed(c, name); f.(type) {
	case nil, *cli.BoolFlag, *cli.StringSliceFlag:
		return ""
	default:
		return f.Names()[0]
	}
}

func find(cmds []*cli.Command, name string) *cli.Command {
	for _, c := range cmds {
		if c.Name == name || slices.Contains(c.Aliases, name) {
			return c
		}
	}
	return nil
}

// flagNamed is c's flag called name, or nil.
func flagNamed(c *cli.Command, name string) cli.Flag {
	for _, f := range c.Flags {
		if slices.Contains(f.Names(), name) {
			return f
		}
	}
	return nil
}

// takesValue: c's flag called name is not a switch.
func takesValue(c *cli.Command, name string) bool {
	f, ok := flagNamed(c, name).(cli.DocGenerationFlag)
	return ok && f.TakesValue()
}

// sliceFlagName spells a repeatable flag by its full name: urfave/cli v2
// refuses `-r A --relevant B` ("two forms of the same flag"), though both
// name one list.
func sliceFlagName(c *cli.Command, arg string) string {
	name, value, hasValue := strings.Cut(strings.TrimLeft(arg, "-"), "=")
	f, ok := flagNamed(c, name).(*cli.StringSliceFlag)
	if !ok {
		return arg
	}
	if arg = "--" + f.Name; hasValue {
		arg += "=" + value
	}
	return arg
}
