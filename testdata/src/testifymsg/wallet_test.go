package testifymsg

import (
	"bufio"
	"bytes"
	"fmt"
	"reflect"
	"runtime"
	"strings"
	"sync"
	"testing"
	"time"
)

func TestDeposits(t *testing.T) {
	w := &Wallet{coins: 30}
	var wg sync.WaitGroup
	for i, n := range []int{10, 20} {
		wg.Add(1)
		go func() {
			defer wg.Done()
			time.Sleep(time.Duration(i) * 5 * time.Millisecond)
			w.Deposit(n)
		}()
	}
	wg.Wait()
	assertEqual(t, 60, w.Coins(), "coins after both deposits")
}

// assertEqual fails t as testify's assert.Equal does (github.com/stretchr/
// testify v1.10.0, assert/assertions.go: Equal, Fail, labeledOutput,
// indentMessageLines; MIT license), for two ints: its whole message on the
// lines after an empty first one, t.Errorf("\n%s", ...). This module uses
// the standard library only; the output is testify's to the byte.
func assertEqual(t *testing.T, expected, actual int, msg string) bool {
	t.Helper()
	if reflect.DeepEqual(expected, actual) {
		return true
	}
	_, file, line, _ := runtime.Caller(1)
	content := []labeledContent{
		{"Error Trace", fmt.Sprintf("%s:%d", file, line)},
		{"Error", fmt.Sprintf("Not equal: \n"+
			"expected: %#v\n"+
			"actual  : %#v", expected, actual)},
		{"Test", t.Name()},
		{"Messages", msg},
	}
	t.Errorf("\n%s", ""+labeledOutput(content...))
	return false
}

type labeledContent struct {
	label   string
	content string
}

func labeledOutput(content ...labeledContent) string {
	longestLabel := 0
	for _, v := range content {
		if len(v.label) > longestLabel {
			longestLabel = len(v.label)
		}
	}
	var output string
	for _, v := range content {
		output += "\t" + v.label + ":" + strings.Repeat(" ", longestLabel-len(v.label)) + "\t" + indentMessageLines(v.content, longestLabel) + "\n"
	}
	return output
}

func indentMessageLines(message string, longestLabelLen int) string {
	outBuf := new(bytes.Buffer)
	for i, scanner := 0, bufio.NewScanner(strings.NewReader(message)); scanner.Scan(); i++ {
		if i != 0 {
			outBuf.WriteString("\n\t" + strings.Repeat(" ", longestLabelLen+1) + "\t")
		}
		outBuf.WriteString(scanner.Text())
	}
	return outBuf.String()
}
