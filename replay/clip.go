package replay

import (
	"fmt"

	"github.com/pecanvet/pecanvet/dynamic/trace"
)

// ClipLine is one line of a bug hatching clip: a step, or a note that
// steps were collapsed.
type ClipLine struct {
	Step    int // 1-based; 0 for a collapse note
	G       string
	Op      string
	Obj     string
	Site    string
	Anomaly int // 1-based index of the anomaly event this step is, or 0
	Hidden  int // for a collapse note: how many steps of G it stands for
}

func (l ClipLine) String() string {
	if l.Step == 0 {
		return fmt.Sprintf("          … %d more steps of %s", l.Hidden, l.G)
	}
	site := l.Site
	if site == "" {
		site = "?"
	}
	mark := ""
	if l.Anomaly > 0 {
		mark = fmt.Sprintf("   ← e%d", l.Anomaly)
	}
	return fmt.Sprintf("   %5d  %-8s %-12s %-20s %s%s", l.Step, l.G, l.Op, l.Obj, site, mark)
}

// Clip renders a schedule as numbered steps, collapsing the middle of a
// run of more than six steps of one goroutine (anomaly steps always show).
// Of a schedule that ran only in part (trace.Schedule.Ran: an exploration
// ran free from there) it shows the steps that ran.
func Clip(s *trace.Schedule) []ClipLine {
	mark := map[int]int{}
	for k, i := range s.Anomaly {
		mark[i] = k + 1
	}
	if s.Ran > 0 && s.Ran < len(s.Steps) {
		cut := *s
		cut.Steps = s.Steps[:s.Ran]
		s = &cut
	}
	step := func(i int) ClipLine {
		st := s.Steps[i]
		return ClipLine{Step: i + 1, G: st.G, Op: st.Op.String(), Obj: st.Obj, Site: st.Site, Anomaly: mark[i]}
	}
	var out []ClipLine
	for i := 0; i < len(s.Steps); {
		j := i
		for j+1 < len(s.Steps) && s.Steps[j+1].G == s.Steps[i].G {
			j++
		}
		if j-i+1 <= 6 {
			for k := i; k <= j; k++ {
				out = append(out, step(k))
			}
			i = j + 1
			continue
		}
		out = append(out, step(i), step(i+1))
		hidden := 0
		for k := i + 2; k <= j-2; k++ {
			if mark[k] > 0 {
				if hidden > 0 {
					out = append(out, ClipLine{G: s.Steps[i].G, Hidden: hidden})
					hidden = 0
				}
				out = append(out, step(k))
			} else {
				hidden++
			}
		}
		if hidden > 0 {
			out = append(out, ClipLine{G: s.Steps[i].G, Hidden: hidden})
		}
		out = append(out, step(j-1), step(j))
		i = j + 1
	}
	return out
}
