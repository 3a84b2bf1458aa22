package insight

import (
	"encoding/json"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
)

// TestReadmeShapes holds the README's --json shapes of memory stats and
// memory audit to what the commands print: every key the README names is
// one the output has, and every key the output has is in the README.
func TestReadmeShapes(t *testing.T) {
	raw, err := os.ReadFile(filepath.Join("..", "..", "README.md"))
	if err != nil {
		t.Fatal(err)
	}
	r, _ := demoReport(t)
	for _, c := range []struct {
		intro string
		value any
	}{
		{"`memory stats --json`:", r.Stats},
		{"`memory audit --json`", r.Audit},
	} {
		i := strings.Index(string(raw), c.intro)
		if i < 0 {
			t.Errorf("README has no %s block", c.intro)
			continue
		}
		block := string(raw[i:])
		start := strings.Index(block, "```json\n")
		end := strings.Index(block[start+8:], "```")
		if start < 0 || end < 0 {
			t.Errorf("README's %s has no json block", c.intro)
			continue
		}
		block = block[start+8 : start+8+end]
		documented := map[string]bool{}
		for _, m := range regexp.MustCompile(`"([a-z_]+)":`).FindAllStringSubmatch(block, -1) {
			documented[m[1]] = true
		}
		b, err := json.Marshal(c.value)
		if err != nil {
			t.Fatal(err)
		}
		actual := map[string]bool{}
		var walk func(v any)
		walk = func(v any) {
			switch v := v.(type) {
			case map[string]any:
				for k, x := range v {
					actual[k] = true
					walk(x)
				}
			case []any:
				for _, x := range v {
					walk(x)
				}
			}
		}
		var v any
		_ = json.Unmarshal(b, &v)
		walk(v)
		for k := range documented {
			if !actual[k] {
				t.Errorf("README's %s names %q, which the output does not have", c.intro, k)
			}
		}
		for k := range actual {
			if regexp.MustCompile(`^[a-z_]+$`).MatchString(k) && !documented[k] && !isDataKey(k) {
				t.Errorf("README's %s lacks the key %q", c.intro, k)
			}
		}
	}
}

// isDataKey tells map keys that are data (categories, statuses, kinds) from
// the shape's own field names.
func isDataKey(k string) bool {
	switch k {
	case "security", "framework", "api", "build", "general", "convention", "none", "review", "pending", "archived", "stale", "active":
		return true
	}
	return false
}
