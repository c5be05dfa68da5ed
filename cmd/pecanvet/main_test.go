package main

import (
	"bytes"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

func runCmd(t *testing.T, args ...string) (code int, stdout, stderr string) {
	t.Helper()
	var o, e bytes.Buffer
	code = run(args, &o, &e)
	return code, o.String(), e.String()
}

func write(t *testing.T, name, content string) string {
	t.Helper()
	p := filepath.Join(t.TempDir(), name)
	if err := os.WriteFile(p, []byte(content), 0o644); err != nil {
		t.Fatal(err)
	}
	return p
}

func TestPredictFigure1(t *testing.T) {
	code, out, errs := runCmd(t, "predict", "../../examples/fig1.trace")
	if code != 1 {
		t.Fatalf("exit %d, want 1 (anomalies found); stderr: %s", code, errs)
	}
	for _, want := range []string{"3 anomalies predicted (race: 3)", "data race (race/WR) on y", "T2 write y at fig1.go:7", "← e2"} {
		if !strings.Contains(out, want) {
			t.Errorf("output lacks %q:\n%s", want, out)
		}
	}
}

func TestPredictJSON(t *testing.T) {
	code, out, _ := runCmd(t, "predict", "-json", "../../examples/fig1.trace")
	if code != 1 {
		t.Fatalf("exit %d", code)
	}
	lines := strings.Split(strings.TrimSpace(out), "\n")
	if len(lines) != 3 {
		t.Fatalf("%d lines, want 3:\n%s", len(lines), out)
	}
	for _, l := range lines {
		var m map[string]any
		if err := json.Unmarshal([]byte(l), &m); err != nil {
			t.Fatalf("%v: %s", err, l)
		}
		for _, k := range []string{"kind", "pattern", "events", "sites", "schedule"} {
			if _, ok := m[k]; !ok {
				t.Errorf("missing %q in %s", k, l)
			}
		}
		evs, sched := m["events"].([]any), m["schedule"].([]any)
		if m["kind"] != "race" || len(evs) != 2 || len(m["sites"].([]any)) != 2 {
			t.Errorf("bad anomaly %s", l)
		}
		if sched[len(sched)-1] != evs[len(evs)-1] {
			t.Errorf("schedule does not end with the anomaly's last event: %s", l)
		}
	}
	if !strings.Contains(out, `"schedule":[1,2,3,4,6,7,5]`) {
		t.Errorf("no Figure 1 schedule ⟨1,5,2,6,7,3⟩ in\n%s", out)
	}
}

func TestPredictErrors(t *testing.T) {
	fig1 := "../../examples/fig1.trace"
	for _, tc := range []struct {
		name string
		args []string
		want string
	}{
		{"no args", []string{"predict"}, "usage: pecanvet predict"},
		{"missing file", []string{"predict", "/nonexistent/t"}, "no such file"},
		{"bad pattern", []string{"predict", "-patterns", "race/X T=t1-t2 SV=s1-s1 AR=u1-u2 AT=r", fig1}, "-patterns:1:"},
		{"unknown set", []string{"predict", "-patterns", "races", fig1}, "races"},
		{"empty trace", []string{"predict", write(t, "empty", "# nothing\n")}, "empty trace"},
		{"unknown op", []string{"predict", write(t, "bad", "a read x\na rd x\n")}, ":2:"},
		{"missing object", []string{"predict", write(t, "bad", "a lock\n")}, ":1:"},
		{"too many events", []string{"predict", "-maxevents", "3", fig1}, "more than 3 events"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			code, _, errs := runCmd(t, tc.args...)
			if code != 2 {
				t.Errorf("exit %d, want 2", code)
			}
			if !strings.Contains(errs, tc.want) {
				t.Errorf("stderr %q lacks %q", errs, tc.want)
			}
		})
	}
}

func TestPredictWarnings(t *testing.T) {
	// Non-nested locking: reported, analysis goes on, and the schedule that
	// uses the lock says it is not guaranteed.
	p := write(t, "nn", `
a lock l
a lock m
a read x @f.go:1
a unlock l
a unlock m
b unlock q
b write x @f.go:2
`)
	code, out, errs := runCmd(t, "predict", "-patterns", "race", p)
	if code != 1 {
		t.Fatalf("exit %d; %s", code, errs)
	}
	if !strings.Contains(errs, "non-nested unlock of l") || !strings.Contains(errs, "does not hold") {
		t.Errorf("warnings missing:\n%s", errs)
	}
	if !strings.Contains(out, "not guaranteed feasible") {
		t.Errorf("no soundness note:\n%s", out)
	}
}

func TestPredictNone(t *testing.T) {
	p := write(t, "locked", "a lock l\na write x\na unlock l\nb lock l\nb read x\nb unlock l\n")
	code, out, _ := runCmd(t, "predict", p)
	if code != 0 || !strings.Contains(out, "no anomalies predicted") {
		t.Errorf("exit %d, output %q", code, out)
	}
}

func TestTraceConvert(t *testing.T) {
	dir := t.TempDir()
	bin := filepath.Join(dir, "t.bin")
	if code, _, errs := runCmd(t, "trace", "-bin", "-o", bin, "../../examples/fig1.trace"); code != 0 {
		t.Fatalf("to binary: exit %d: %s", code, errs)
	}
	code, text1, errs := runCmd(t, "trace", "-text", bin)
	if code != 0 {
		t.Fatalf("to text: exit %d: %s", code, errs)
	}
	txt := filepath.Join(dir, "t.txt")
	if code, _, errs := runCmd(t, "trace", "-o", txt, bin); code != 0 {
		t.Fatal(errs)
	}
	bin2 := filepath.Join(dir, "t2.bin")
	if code, _, errs := runCmd(t, "trace", "-bin", "-o", bin2, txt); code != 0 {
		t.Fatal(errs)
	}
	b1, _ := os.ReadFile(bin)
	b2, _ := os.ReadFile(bin2)
	if !bytes.Equal(b1, b2) {
		t.Errorf("binary → text → binary changed the file")
	}
	if !strings.Contains(text1, "T2 write y @fig1.go:7") {
		t.Errorf("text output:\n%s", text1)
	}
	// A failed conversion leaves no output file.
	out := filepath.Join(dir, "never")
	if code, _, _ := runCmd(t, "trace", "-bin", "-o", out, write(t, "bad", "a rd x\n")); code != 2 {
		t.Errorf("exit %d for a bad trace", code)
	}
	if _, err := os.Stat(out); !os.IsNotExist(err) {
		t.Errorf("output file written for a bad trace")
	}
}

func TestHelp(t *testing.T) {
	for _, args := range [][]string{{"help"}, {"predict", "-h"}, {"trace", "-h"}} {
		code, out, errs := runCmd(t, args...)
		if code != 0 || out+errs == "" {
			t.Errorf("%v: exit %d", args, code)
		}
	}
	if code, _, _ := runCmd(t, "frobnicate"); code != 2 {
		t.Errorf("unknown subcommand: exit %d", code)
	}
}

func TestPredictSchedules(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "s")
	if code, _, errs := runCmd(t, "predict", "-schedules", dir, "../../examples/fig1.trace"); code != 1 {
		t.Fatalf("exit %d: %s", code, errs)
	}
	ents, err := os.ReadDir(dir)
	if err != nil || len(ents) != 3 {
		t.Fatalf("%v, %d files", err, len(ents))
	}
	b, _ := os.ReadFile(filepath.Join(dir, "003-race-WR.sched"))
	if !strings.Contains(string(b), "anomaly race/WR 6 7\n") || !strings.HasSuffix(string(b), "T1 read y @fig1.go:3 n=1\n") {
		t.Errorf("schedule file:\n%s", b)
	}
}

func TestPredictWindow(t *testing.T) {
	code, out, errs := runCmd(t, "predict", "-window", "6", "../../examples/fig1.trace")
	if code != 1 {
		t.Fatalf("exit %d, want 1; stderr: %s", code, errs)
	}
	// Windows of 6 events overlapping by 1: the race on y (events 5 and 7)
	// spans more than the overlap and is the documented miss.
	for _, want := range []string{"2 anomalies predicted from 7 events, 2 goroutines, in 2 windows", "(event 3)", "(event 6)"} {
		if !strings.Contains(out, want) {
			t.Errorf("output lacks %q:\n%s", want, out)
		}
	}
	if strings.Contains(out, "fig1.go:7") {
		t.Errorf("race on y found across windows farther apart than the overlap:\n%s", out)
	}
	if code, _, errs := runCmd(t, "predict", "-window", "6", "-schedules", t.TempDir(), "../../examples/fig1.trace"); code != 2 || !strings.Contains(errs, "cannot be used with -window") {
		t.Errorf("-window with -schedules: exit %d, stderr %q", code, errs)
	}
}
