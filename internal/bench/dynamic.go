package main

import (
	"context"
	"fmt"
	"math"
	"os"
	"os/exec"
	"path/filepath"
	"sort"
	"time"

	"github.com/pecanvet/pecanvet/dynamic/record"
	"github.com/pecanvet/pecanvet/dynamic/trace"
	"github.com/pecanvet/pecanvet/pattern"
	"github.com/pecanvet/pecanvet/predict"
	"github.com/pecanvet/pecanvet/replay"
)

// defaultPkgs are subjects with real work in their tests (not only sleeps).
const defaultPkgs = "./account ./buggyprg ./critical ./mergesort ./moldyn ./montecarlo ./raytracer ./cache4j ./treeset ./linkedlist ./bufwriter ./pool"

// benchRecord times each package's whole test binary plain, recorded and
// under the race detector, alternating the three in each round so that
// machine noise hits them alike, and reports medians and ratios.
func benchRecord(dir string, pkgs []string, runs int) error {
	ctx := context.Background()
	b, err := record.NewBuild(ctx, record.Options{Dir: dir, Patterns: pkgs, Plain: true})
	if err != nil {
		return err
	}
	defer b.Close()
	tmp, err := os.MkdirTemp("", "pecanvet-bench-")
	if err != nil {
		return err
	}
	defer os.RemoveAll(tmp)
	var names []string
	for p := range b.Binaries {
		names = append(names, p)
	}
	sort.Strings(names)
	logSum, n := 0.0, 0
	for i, pkg := range names {
		race := filepath.Join(tmp, fmt.Sprintf("r%d.test", i))
		cmd := exec.Command("go", "test", "-race", "-c", "-o", race, "-vet=off", pkg)
		cmd.Dir = dir
		if out, err := cmd.CombinedOutput(); err != nil {
			return fmt.Errorf("%s: %v\n%s", pkg, err, out)
		}
		var plain, rec, rc []float64
		tracePath := filepath.Join(tmp, "t.trace")
		for r := 0; r < runs; r++ {
			plain = append(plain, timeRun(b.Plain[pkg], b.Dirs[pkg], nil))
			rec = append(rec, timeRun(b.Binaries[pkg], b.Dirs[pkg], []string{"PECANVET_TRACE=" + tracePath}))
			// The race runtime sleeps a second at exit after a report;
			// that is not the detector's cost.
			rc = append(rc, timeRun(race, b.Dirs[pkg], []string{"GORACE=atexit_sleep_ms=0"}))
		}
		p, r, x := median(plain), median(rec), median(rc)
		fmt.Printf("BENCH record pkg=%s plain_s=%.4f record_s=%.4f race_s=%.4f record_over_race=%.3f record_over_plain=%.3f runs=%d\n",
			pkg, p, r, x, r/x, r/p, runs)
		logSum += math.Log(r / x)
		n++
	}
	if n > 0 {
		fmt.Printf("BENCH record-geomean pkgs=%d record_over_race=%.3f\n", n, math.Exp(logSum/float64(n)))
	}
	return nil
}

// timeRun runs a test binary (all its tests) and returns the wall time in
// seconds.
func timeRun(bin, dir string, env []string) float64 {
	cmd := exec.Command(bin, "-test.count=1")
	cmd.Dir = dir
	cmd.Env = append(os.Environ(), env...)
	start := time.Now()
	cmd.Run() // a failing subject test still costs what it costs
	return time.Since(start).Seconds()
}

func median(xs []float64) float64 {
	s := append([]float64(nil), xs...)
	sort.Float64s(s)
	return s[len(s)/2]
}

// benchReplay records each test, predicts and replays up to 10 anomalies,
// and reports the mean replay time against the recording time.
func benchReplay(dir string, pkgs []string) error {
	ctx := context.Background()
	b, err := record.NewBuild(ctx, record.Options{Dir: dir, Patterns: pkgs})
	if err != nil {
		return err
	}
	defer b.Close()
	tmp, err := os.MkdirTemp("", "pecanvet-bench-")
	if err != nil {
		return err
	}
	defer os.RemoveAll(tmp)
	pats, _ := pattern.Builtin("all")
	var names []string
	for p := range b.Binaries {
		names = append(names, p)
	}
	sort.Strings(names)
	for _, pkg := range names {
		tests, err := b.Tests(ctx, pkg, "")
		if err != nil {
			return err
		}
		var replays, reproduced int
		var replayTime, recordTime time.Duration
		for _, test := range tests {
			rt := b.RecordTest(ctx, pkg, test, filepath.Join(tmp, "rec.trace"), time.Minute)
			recordTime += rt.Wall
			tr, err := trace.ReadFile(rt.Trace, trace.ReadOptions{Lenient: true})
			if err != nil || len(tr.Events) == 0 {
				continue
			}
			res, err := predict.Run(tr, pats, predict.Options{})
			if err != nil {
				continue
			}
			for i, a := range res.Anomalies {
				if i >= 10 {
					break
				}
				s, err := trace.NewSchedule(tr, a.Pattern.ID(), a.Schedule.Events(), a.Events)
				if err != nil {
					return err
				}
				v := replay.Run(ctx, b.Build, pkg, test, s, filepath.Join(tmp, "r"), replay.Options{})
				replays++
				replayTime += v.Wall
				if v.Verdict == replay.Reproduced {
					reproduced++
				}
			}
		}
		ms := 0.0
		if replays > 0 {
			ms = float64(replayTime.Microseconds()) / 1000 / float64(replays)
		}
		fmt.Printf("BENCH replay pkg=%s replays=%d reproduced=%d ms_per_replay=%.1f record_ms=%.1f\n",
			pkg, replays, reproduced, ms, float64(recordTime.Microseconds())/1000)
	}
	return nil
}
