package app

import (
	"encoding/json"
	"fmt"
	"os"

	"github.com/flowmem/flowmem/internal/config"
	"github.com/flowmem/flowmem/internal/mdstore"
	"github.com/urfave/cli/v2"
)

func configCommand(e *env) *cli.Command {
	return &cli.Command{
		Name:  "config",
		Usage: "read and change .flow/config.json",
		Description: `Keys are dotted paths into the JSON file. Values true/false, integers,
floats and JSON literals are stored typed; anything else is a string.

Examples:
   flowmem config set memory.enabled true
   flowmem config get memory.enabled --json
   flowmem config set capture.min_severity minor
   flowmem config list`,
		Subcommands: []*cli.Command{
			{
				Name:      "get",
				Usage:     "print a key's effective value",
				ArgsUsage: "KEY",
				Description: `Example:
   flowmem config get memory.enabled`,
				Flags: []cli.Flag{jsonFlag()},
				Action: args(1, "KEY", func(c *cli.Context) error {
					cfg, err := e.configFor()
					if err != nil {
						return err
					}
					key := c.Args().First()
					v, src, err := cfg.Get(key)
					if err != nil {
						return err
					}
					if c.Bool("json") {
						return e.writeJSON(config.Setting{Key: key, Value: v, Source: src})
					}
					if s, ok := v.(string); ok {
						_, err = fmt.Fprintln(e.Out, s)
						return err
					}
					b, _ := json.Marshal(v) // decoded from JSON or typed by ParseValue
					_, err = fmt.Fprintf(e.Out, "%s\n", b)
					return err
				}),
			},
			{
				Name:      "set",
				Usage:     "set a key (nested objects are created)",
				ArgsUsage: "KEY VALUE",
				Description: `Examples:
   flowmem config set memory.enabled true
   flowmem config set recall.limit 5
   flowmem config set capture.review_patterns '["\\bmy-review\\b"]'`,
				Flags: []cli.Flag{jsonFlag()},
				Action: args(2, "KEY VALUE", func(c *cli.Context) error {
					key, value := c.Args().Get(0), config.ParseValue(c.Args().Get(1))
					// Refused before anything is made on disk: a bad
					// setting must not leave a .flow/ behind.
					for _, f := range []struct{ name, val string }{{"KEY", key}, {"VALUE", c.Args().Get(1)}} {
						if i := invalidUTF8(f.val); i >= 0 {
							return usagef("%s is not valid UTF-8 (byte %d); nothing was written", f.name, i+1)
						}
					}
					if err := new(config.Config).Set(key, value); err != nil {
						return usagef("%v", err)
					}
					p, found, err := e.projectOrRoot()
					if err != nil {
						return err
					}
					if !found {
						if err := os.MkdirAll(p.FlowDir(), 0o755); err != nil {
							return fmt.Errorf("create .flow: %w", err)
						}
						e.say("created %s (run 'flowmem init' there to finish setting up the project)", p.FlowDir())
					}
					// One writer at a time, or two sets at once each save
					// the file as they read it and one setting is lost.
					unlock, err := mdstore.Open(p.MemoryDir()).Lock(c.Context)
					if err != nil {
						return err
					}
					defer unlock()
					cfg, err := config.LoadForSet(p.ConfigPath(), key)
					if err != nil {
						return err
					}
					if err := cfg.Set(key, value); err != nil {
						return usagef("%v", err)
					}
					if err := cfg.Save(); err != nil {
						return err
					}
					var notes []string
					if near := config.Mistyped(key); near != "" {
						notes = append(notes, fmt.Sprintf("%s is not a flowmem setting (did you mean %s?): flowmem does not read it; kept for any other tool that does", key, near))
					}
					if c.Bool("json") {
						return e.writeJSON(struct {
							config.Setting
							Notes []string `json:"notes,omitempty"`
						}{config.Setting{Key: key, Value: value, Source: "file"}, notes})
					}
					b, _ := json.Marshal(value)
					e.say("%s set to %s in %s", key, b, e.rel(p, p.ConfigPath()))
					e.sayNotes(notes)
					return nil
				}),
			},
			{
				Name:  "list",
				Usage: "print every effective setting and where it comes from",
				Description: `Example:
   flowmem config list --json`,
				Flags: []cli.Flag{jsonFlag()},
				Action: args(0, "no arguments", func(c *cli.Context) error {
					cfg, err := e.configFor()
					if err != nil {
						return err
					}
					list := cfg.List()
					if c.Bool("json") {
						return e.writeJSON(map[string]any{"path": cfg.Path, "settings": list})
					}
					for _, s := range list {
						b, _ := json.Marshal(s.Value)
						fmt.Fprintf(e.Out, "%s = %s (%s)\n", s.Key, b, s.Source)
					}
					return nil
				}),
			},
		},
	}
}

// configFor loads the config of the project found from the working
// directory; outside a project, the defaults.
func (e *env) configFor() (*config.Config, error) {
	p, _, err := e.projectOrRoot()
	if err != nil {
		return nil, err
	}
	return config.Load(p.ConfigPath())
}
