package app

import (
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"
)

// TestReadmeConfigTable: the README's configuration table lists every
// setting `config list --json` knows, each with the default it reports.
func TestReadmeConfigTable(t *testing.T) {
	t.Parallel()
	readme, err := os.ReadFile(filepath.Join("..", "..", "README.md"))
	if err != nil {
		t.Fatal(err)
	}
	table := readmeTable(t, string(readme), "| key | default | meaning |")

	dir := t.TempDir()
	if err := os.Mkdir(filepath.Join(dir, ".flow"), 0o755); err != nil {
		t.Fatal(err)
	}
	std, out, errb := testIO(dir)
	if code := Main(context.Background(), []string{"flowmem", "config", "list", "--json"}, std); code != 0 {
		t.Fatalf("config list --json: exit %d: %s", code, errb)
	}
	var list struct {
		Settings []struct {
			Key    string `json:"key"`
			Value  any    `json:"value"`
			Source string `json:"source"`
		} `json:"settings"`
	}
	if err := json.Unmarshal(out.Bytes(), &list); err != nil {
		t.Fatalf("config list --json: %v\n%s", err, out)
	}
	if len(list.Settings) == 0 {
		t.Fatal("config list --json lists no settings")
	}
	for _, s := range list.Settings {
		if s.Source != "default" {
			t.Fatalf("%s comes from %s, want the default", s.Key, s.Source)
		}
		cell, ok := table[s.Key]
		if !ok {
			t.Errorf("README's config table lacks %s (default %v)", s.Key, s.Value)
			continue
		}
		delete(table, s.Key)
		var got any
		if err := json.Unmarshal([]byte(cell), &got); err != nil {
			t.Errorf("README: the default of %s, %s, is not a JSON value: %v", s.Key, cell, err)
			continue
		}
		if !reflect.DeepEqual(got, s.Value) {
			want, _ := json.Marshal(s.Value)
			t.Errorf("README: %s defaults to %s; config list says %s", s.Key, cell, want)
		}
	}
	for k := range table {
		t.Errorf("README's config table lists %s, which config list does not know", k)
	}
}

// TestRalphReadmeConfigDefaults: the settings of .flow/config.json that the
// Ralph example's knobs table names carry the defaults config list reports.
func TestRalphReadmeConfigDefaults(t *testing.T) {
	t.Parallel()
	readme, err := os.ReadFile(filepath.Join("..", "..", "examples", "ralph", "README.md"))
	if err != nil {
		t.Fatal(err)
	}
	defaults := configDefaults(t)
	named := 0
	for key, cell := range readmeTable(t, string(readme), "| setting | default | |") {
		keys, values := strings.Split(key, "`, `"), strings.Split(cell, ", ")
		if _, ok := defaults[keys[0]]; !ok {
			continue // a flag or an environment variable
		}
		if len(values) != len(keys) {
			t.Errorf("Ralph README: %d defaults for %s: %q", len(values), key, cell)
			continue
		}
		for i, k := range keys {
			named++
			var got any
			if err := json.Unmarshal([]byte(values[i]), &got); err != nil {
				got = values[i] // a bare word for a string
			}
			if want, ok := defaults[k]; !ok || !reflect.DeepEqual(got, want) {
				t.Errorf("Ralph README: %s defaults to %s; config list says %v", k, values[i], want)
			}
		}
	}
	if named == 0 {
		t.Error("Ralph README's knobs table names no setting of .flow/config.json")
	}
}

// configDefaults is config list --json's value of each setting, in a
// project with an empty config.
func configDefaults(t *testing.T) map[string]any {
	t.Helper()
	dir := t.TempDir()
	if err := os.Mkdir(filepath.Join(dir, ".flow"), 0o755); err != nil {
		t.Fatal(err)
	}
	std, out, errb := testIO(dir)
	if code := Main(context.Background(), []string{"flowmem", "config", "list", "--json"}, std); code != 0 {
		t.Fatalf("config list --json: exit %d: %s", code, errb)
	}
	var list struct {
		Settings []struct {
			Key   string `json:"key"`
			Value any    `json:"value"`
		} `json:"settings"`
	}
	if err := json.Unmarshal(out.Bytes(), &list); err != nil {
		t.Fatalf("config list --json: %v\n%s", err, out)
	}
	m := map[string]any{}
	for _, s := range list.Settings {
		m[s.Key] = s.Value
	}
	return m
}

// readmeTable parses the markdown table under header into key → default
// cell: backticks removed, `\|` read as a pipe (how GitHub tables escape
// it inside code).
func readmeTable(t *testing.T, doc, header string) map[string]string {
	t.Helper()
	i := strings.Index(doc, header)
	if i < 0 {
		t.Fatalf("README has no table %q", header)
	}
	rows := map[string]string{}
	for n, line := range strings.Split(doc[i:], "\n") {
		if n < 2 { // the header and the |---| line
			continue
		}
		if !strings.HasPrefix(line, "|") {
			break
		}
		cells := splitRow(line)
		if len(cells) < 2 {
			t.Fatalf("README table row %q has %d cells", line, len(cells))
		}
		key := strings.Trim(cells[0], "` ")
		rows[key] = strings.Trim(cells[1], "` ")
	}
	return rows
}

func splitRow(line string) []string {
	line = strings.TrimSpace(line)
	line = strings.TrimSuffix(strings.TrimPrefix(line, "|"), "|")
	var cells []string
	var cur strings.Builder
	for i := 0; i < len(line); i++ {
		switch {
		case line[i] == '\\' && i+1 < len(line) && line[i+1] == '|':
			cur.WriteByte('|')
			i++
		case line[i] == '|':
			cells = append(cells, strings.TrimSpace(cur.String()))
			cur.Reset()
		default:
			cur.WriteByte(line[i])
		}
	}
	return append(cells, strings.TrimSpace(cur.String()))
}

// TestReadmeInstallsFromCheckout: the install steps are the ones that work
// on a fresh machine, from a checkout; the module is not published, so a
// remote `go install …@latest` fails.
func TestReadmeInstallsFromCheckout(t *testing.T) {
	t.Parallel()
	for _, f := range []string{"README.md", "examples/ralph/README.md", "examples/ralph/ralph.sh", ".claude-plugin/marketplace.json"} {
		b, err := os.ReadFile(filepath.Join("..", "..", f))
		if err != nil {
			t.Fatal(err)
		}
		if strings.Contains(string(b), "@latest") {
			t.Errorf("%s tells people to go install …@latest, which fails", f)
		}
	}
	readme, _ := os.ReadFile(filepath.Join("..", "..", "README.md"))
	if !strings.Contains(string(readme), "make setup PROJECT=") {
		t.Error("README's quick start does not say: make setup PROJECT=…")
	}
}
