package insight

import (
	"cmp"
	"fmt"
	"html"
	"io"
	"strings"
	"time"

	"github.com/flowmem/flowmem/internal/mdstore"
)

// Report is what the HTML page shows.
type Report struct {
	Title   string
	Now     time.Time
	Stats   Stats
	Audit   Audit
	Entries []mdstore.Entry
	// StaleAfterDays names an entry's status as stats does.
	StaleAfterDays int
}

// maxWeeks bounds the captures chart to the most recent weeks.
const maxWeeks = 26

// WriteHTML writes the report as one self-contained page: inline CSS and
// SVG, no script, no font, no request of any kind (its Content Security
// Policy forbids them), every text from memory escaped.
func WriteHTML(w io.Writer, r Report) error {
	var b strings.Builder
	st := &r.Stats
	b.WriteString(`<!DOCTYPE html>
<html lang="en"><head><meta charset="utf-8">
<meta http-equiv="Content-Security-Policy" content="default-src 'none'; style-src 'unsafe-inline'; img-src data:">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>`)
	b.WriteString(esc(r.Title))
	b.WriteString(`</title>
<style>
body{font:15px/1.45 system-ui,-apple-system,"Segoe UI",sans-serif;margin:0;color:#1d2433;background:#f6f7f9}
main{max-width:1080px;margin:0 auto;padding:24px}
h1{font-size:24px;margin:0 0 4px}h2{font-size:18px;margin:28px 0 10px;border-bottom:1px solid #d9dde4;padding-bottom:4px}
.sub{color:#5b6475;margin:0 0 18px}
.cards{display:flex;flex-wrap:wrap;gap:10px}
.card{background:#fff;border:1px solid #d9dde4;border-radius:8px;padding:10px 14px;min-width:110px}
.card b{display:block;font-size:22px}.card span{color:#5b6475;font-size:13px}
.grid{display:grid;grid-template-columns:1fr 1fr;gap:18px}
@media (max-width:760px){.grid{grid-template-columns:1fr}}
table{border-collapse:collapse;width:100%;background:#fff;border:1px solid #d9dde4}
th,td{text-align:left;padding:5px 8px;border-bottom:1px solid #eceef2;vertical-align:top}
th{background:#eef0f4;font-weight:600}
td.n{text-align:right;white-space:nowrap;font-variant-numeric:tabular-nums}
.bar{display:inline-block;height:10px;background:#4f7cff;border-radius:2px;vertical-align:middle}
code{font:12px ui-monospace,monospace;background:#eef0f4;padding:1px 4px;border-radius:3px}
.bad{color:#a12a2a}.ok{color:#1f7a3a}.muted{color:#5b6475}
.entry{background:#fff;border:1px solid #d9dde4;border-radius:8px;padding:8px 12px;margin:8px 0}
.entry p{margin:2px 0}.tag{font-size:12px;border-radius:10px;padding:1px 8px;background:#eef0f4;margin-right:4px}
.tag.stale{background:#fff1d6}.tag.archived{background:#e5e5e5}.tag.pending{background:#e3ecff}
details summary{cursor:pointer;font-weight:600;margin:6px 0}
svg text{font:11px system-ui,sans-serif;fill:#5b6475}
</style></head><body><main>
`)
	fmt.Fprintf(&b, "<h1>%s</h1>\n<p class=\"sub\">Generated %s by flowmem memory report</p>\n",
		esc(r.Title), r.Now.UTC().Format("2006-01-02 15:04 UTC"))

	b.WriteString(`<div class="cards">`)
	card(&b, st.Total, "entries")
	for _, s := range []string{"active", "stale", "archived", "pending"} {
		card(&b, st.Status[s], s)
	}
	card(&b, st.Reviews.Total, "reviews logged")
	card(&b, len(r.Audit.NotWorking), "not working")
	card(&b, len(r.Audit.Holding), "holding")
	b.WriteString("</div>\n")

	b.WriteString("<h2>Captures over time</h2>\n")
	capturesChart(&b, r.Entries, r.Now)

	b.WriteString(`<div class="grid"><div><h2>Entries by category</h2>`)
	countTable(&b, "Category", st.Categories)
	b.WriteString(`</div><div><h2>Entries by status</h2>`)
	countTable(&b, "Status", st.Status)
	b.WriteString("</div></div>\n")

	b.WriteString("<h2>Most recurrent lessons</h2>\n")
	if len(st.Recurrent) == 0 {
		b.WriteString(`<p class="muted">No lesson has been seen in more than one review yet.</p>`)
	} else {
		b.WriteString("<table><tr><th>Seen</th><th>Lesson</th><th>Tasks</th><th>Last seen</th></tr>\n")
		for _, l := range st.Recurrent {
			fmt.Fprintf(&b, "<tr><td class=\"n\">%dx</td><td>%s <code>%s</code></td><td>%s</td><td>%s</td></tr>\n",
				l.Seen, esc(l.Text), esc(l.ID), esc(strings.Join(l.Tasks, ", ")), esc(l.LastSeen))
		}
		b.WriteString("</table>\n")
	}

	fmt.Fprintf(&b, "<h2>Not working: handed to the model, then repeated</h2>\n")
	if len(r.Audit.NotWorking) == 0 {
		b.WriteString(`<p class="muted">No lesson recurred after it was handed to the model.</p>`)
	} else {
		b.WriteString("<table><tr><th>Lesson</th><th>Handed over</th><th>Recurred</th><th>Advice</th></tr>\n")
		for _, f := range r.Audit.NotWorking {
			fmt.Fprintf(&b, "<tr><td class=\"bad\">%s <code>%s</code></td><td>%s</td><td>%s</td><td>%s</td></tr>\n",
				esc(f.Text), esc(f.ID), esc(handedText(f.Handed)), esc(seenList(f.Recurred)), esc(f.Advice))
		}
		b.WriteString("</table>\n")
	}
	fmt.Fprintf(&b, "<p class=\"muted\">Holding: %d lesson(s) handed over and not seen in a review since. Not recalled in %d days: %d.</p>\n",
		len(r.Audit.Holding), r.Audit.Days, len(r.Audit.Unused))

	if len(st.FirstPassShip) > 0 {
		b.WriteString("<h2>First-pass SHIP rate by week</h2>\n<table><tr><th>Week</th><th>Shipped first time</th><th></th></tr>\n")
		for _, wk := range st.FirstPassShip {
			fmt.Fprintf(&b, "<tr><td>%s</td><td class=\"n\">%d / %d (%.0f%%)</td><td><span class=\"bar\" style=\"width:%dpx\"></span></td></tr>\n",
				esc(wk.Week), wk.Ship, wk.Reviewed, 100*wk.Rate, int(200*wk.Rate))
		}
		b.WriteString("</table>\n")
	}

	b.WriteString("<h2>Every entry</h2>\n")
	for _, k := range mdstore.Kinds {
		var es []*mdstore.Entry
		for i := range r.Entries {
			if r.Entries[i].Kind == k {
				es = append(es, &r.Entries[i])
			}
		}
		b.WriteString("<details")
		if len(es) > 0 && len(es) <= 200 {
			b.WriteString(" open")
		}
		fmt.Fprintf(&b, "><summary>%s (%d)</summary>\n", esc(k.Title()), len(es))
		for _, e := range es {
			entryHTML(&b, e, Status(e, r.Now, r.StaleAfterDays))
		}
		b.WriteString("</details>\n")
	}
	b.WriteString("</main></body></html>\n")
	_, err := io.WriteString(w, b.String())
	return err
}

func esc(s string) string { return html.EscapeString(s) }

func card(b *strings.Builder, n int, label string) {
	fmt.Fprintf(b, `<div class="card"><b>%d</b><span>%s</span></div>`, n, esc(label))
}

func countTable(b *strings.Builder, head string, m map[string]int) {
	top := 1
	for _, v := range m {
		top = max(top, v)
	}
	fmt.Fprintf(b, "<table><tr><th>%s</th><th>Entries</th><th></th></tr>\n", esc(head))
	for _, c := range sortedCounts(m) {
		fmt.Fprintf(b, "<tr><td>%s</td><td class=\"n\">%d</td><td><span class=\"bar\" style=\"width:%dpx\"></span></td></tr>\n",
			esc(c.name), c.n, 160*c.n/top)
	}
	b.WriteString("</table>\n")
}

// capturesChart draws entries first captured per ISO week, the most recent
// maxWeeks weeks up to now, as an inline SVG bar chart.
func capturesChart(b *strings.Builder, entries []mdstore.Entry, now time.Time) {
	per := map[string]int{}
	for i := range entries {
		t, err := time.Parse("2006-01-02", entries[i].Date)
		if err != nil {
			continue
		}
		per[weekOf(t)]++
	}
	// The weeks shown: from the first week with a capture (at most
	// maxWeeks back) to this week, empty weeks included.
	var weeks []string
	start := now.UTC().AddDate(0, 0, -7*(maxWeeks-1))
	first := ""
	for wk := range per {
		if first == "" || wk < first {
			first = wk
		}
	}
	for t := start; !t.After(now.UTC()); t = t.AddDate(0, 0, 7) {
		if wk := weekOf(t); first != "" && wk >= first {
			weeks = append(weeks, wk)
		}
	}
	if len(weeks) == 0 {
		b.WriteString(`<p class="muted">Nothing captured yet.</p>`)
		return
	}
	top := 1
	for _, wk := range weeks {
		top = max(top, per[wk])
	}
	const h, bw, gap = 120, 28, 8
	width := len(weeks)*(bw+gap) + 40
	fmt.Fprintf(b, `<svg role="img" aria-label="entries captured per week" width="%d" height="%d" viewBox="0 0 %d %d">`, width, h+40, width, h+40)
	for i, wk := range weeks {
		n := per[wk]
		bh := h * n / top
		x := 30 + i*(bw+gap)
		fmt.Fprintf(b, `<rect x="%d" y="%d" width="%d" height="%d" fill="#4f7cff"><title>%s: %d</title></rect>`, x, 10+h-bh, bw, bh, esc(wk), n)
		if n > 0 {
			fmt.Fprintf(b, `<text x="%d" y="%d" text-anchor="middle">%d</text>`, x+bw/2, 10+h-bh-2, n)
		}
		fmt.Fprintf(b, `<text x="%d" y="%d" text-anchor="middle">%s</text>`, x+bw/2, h+26, esc(strings.TrimPrefix(wk[5:], "W")))
	}
	fmt.Fprintf(b, `<text x="0" y="%d">week</text></svg>`+"\n", h+26)
}

func weekOf(t time.Time) string {
	y, w := t.ISOWeek()
	return fmt.Sprintf("%04d-W%02d", y, w)
}

func entryHTML(b *strings.Builder, e *mdstore.Entry, status string) {
	b.WriteString(`<div class="entry">`)
	fmt.Fprintf(b, `<p><span class="tag %s">%s</span>`, esc(status), esc(status))
	if e.Category != "" {
		fmt.Fprintf(b, `<span class="tag">%s</span>`, esc(e.Category))
	}
	fmt.Fprintf(b, `<code>%s</code> <span class="muted">%s · %s · seen %dx, last %s`, esc(e.ID), esc(e.Date), esc(e.Task), max(e.Seen, 1), esc(cmp.Or(e.LastSeen, e.Date)))
	if len(e.Tasks) > 0 {
		fmt.Fprintf(b, " · in %s", esc(strings.Join(e.Tasks, ", ")))
	}
	b.WriteString("</span></p>")
	for _, f := range [...]struct{ label, val string }{{"Issue", e.Issue}, {"Fix", e.Fix}, {"Context", e.Context}} {
		if f.val != "" {
			fmt.Fprintf(b, "<p><b>%s:</b> %s</p>", f.label, esc(f.val))
		}
	}
	if body := strings.TrimSpace(e.Body); body != "" {
		fmt.Fprintf(b, "<p>%s</p>", strings.ReplaceAll(esc(body), "\n", "<br>"))
	}
	b.WriteString("</div>\n")
}
