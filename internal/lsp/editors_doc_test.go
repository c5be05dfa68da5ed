package lsp

import (
	"bytes"
	"encoding/json"
	"os"
	"os/exec"
	"regexp"
	"slices"
	"strings"
	"testing"
	"time"
)

// editorsDoc documents the editor configurations.
const editorsDoc = "../../docs/editors.md"

// editorSnippets returns the code blocks of docs/editors.md, by language.
func editorSnippets(t *testing.T) map[string]string {
	t.Helper()
	b, err := os.ReadFile(editorsDoc)
	if err != nil {
		t.Fatal(err)
	}
	s := string(b)
	out := map[string]string{}
	for _, m := range regexp.MustCompile("(?s)```(\\w+)\n(.*?)```").FindAllStringSubmatch(s, -1) {
		out[m[1]] = m[2]
	}
	return out
}

var quoted = regexp.MustCompile(`['"]([^'"]*)['"]`)

func strs(list string) []string {
	var out []string
	for _, m := range quoted.FindAllStringSubmatch(list, -1) {
		out = append(out, m[1])
	}
	return out
}

// TestEditorsDoc checks docs/editors.md's editor configurations — Neovim's
// vim.lsp.config, Helix's languages.toml, VS Code's generic client — for
// Go files, then starts the command each gives and holds a short LSP
// session with it (initialize, shutdown, exit with status 0).
func TestEditorsDoc(t *testing.T) {
	sn := editorSnippets(t)
	cmds := map[string][]string{}

	lua := sn["lua"]
	if m := regexp.MustCompile(`cmd\s*=\s*\{([^}]*)\}`).FindStringSubmatch(lua); m != nil {
		cmds["neovim"] = strs(m[1])
	}
	if m := regexp.MustCompile(`filetypes\s*=\s*\{([^}]*)\}`).FindStringSubmatch(lua); m == nil || !slices.Contains(strs(m[1]), "go") {
		t.Errorf("Neovim: no filetypes with go:\n%s", lua)
	}
	if !strings.Contains(lua, "vim.lsp.config('pecanvet'") || !strings.Contains(lua, "vim.lsp.enable('pecanvet')") {
		t.Errorf("Neovim: the server is not configured and enabled as pecanvet:\n%s", lua)
	}

	toml := sn["toml"]
	cmd := regexp.MustCompile(`(?m)^command\s*=\s*"([^"]*)"`).FindStringSubmatch(toml)
	args := regexp.MustCompile(`(?m)^args\s*=\s*\[([^\]]*)\]`).FindStringSubmatch(toml)
	if cmd != nil && args != nil {
		cmds["helix"] = append([]string{cmd[1]}, strs(args[1])...)
	}
	if !strings.Contains(toml, "[language-server.pecanvet]") || !regexp.MustCompile(`(?m)^name = "go"$`).MatchString(toml) {
		t.Errorf("Helix: no pecanvet server or go language:\n%s", toml)
	}
	if m := regexp.MustCompile(`language-servers\s*=\s*\[([^\]]*)\]`).FindStringSubmatch(toml); m == nil || !slices.Equal(strs(m[1]), []string{"gopls", "pecanvet"}) {
		t.Errorf("Helix: go's language servers are not gopls and pecanvet:\n%s", toml)
	}

	var vs struct {
		Command   string   `json:"glspc.server.command"`
		Args      []string `json:"glspc.server.commandArguments"`
		Languages []string `json:"glspc.server.languageId"`
	}
	if err := json.Unmarshal([]byte(sn["json"]), &vs); err != nil {
		t.Errorf("VS Code settings: %v\n%s", err, sn["json"])
	}
	cmds["vscode"] = append([]string{vs.Command}, vs.Args...)
	if !slices.Contains(vs.Languages, "go") {
		t.Errorf("VS Code: languageId %v lacks go", vs.Languages)
	}

	for _, editor := range []string{"neovim", "helix", "vscode"} {
		c := cmds[editor]
		if len(c) < 2 || c[0] != "pecanvet" || c[1] != "lsp" {
			t.Errorf("%s: command %q, want pecanvet lsp …", editor, c)
			continue
		}
		if testing.Short() {
			continue
		}
		handshake(t, editor, append([]string{buildPecanvet(t)}, c[1:]...))
	}
}

// handshake starts argv and checks that it speaks LSP and exits cleanly.
func handshake(t *testing.T, what string, argv []string) {
	t.Helper()
	cmd := exec.Command(argv[0], argv[1:]...)
	stdin, _ := cmd.StdinPipe()
	stdout, _ := cmd.StdoutPipe()
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	c := newClient(t, stdout, stdin)
	r := c.response(c.request("initialize", map[string]any{"processId": nil, "capabilities": map[string]any{}}))
	if r.Error != nil || !strings.Contains(string(r.Result), `"textDocumentSync"`) {
		t.Errorf("%s: initialize: %s %v", what, r.Result, r.Error)
	}
	c.notify("initialized", map[string]any{})
	c.response(c.request("shutdown", nil))
	c.notify("exit", nil)
	done := make(chan error, 1)
	go func() { done <- cmd.Wait() }()
	select {
	case err := <-done:
		if err != nil {
			t.Errorf("%s: %q: %v\n%s", what, argv, err, stderr.String())
		}
	case <-time.After(30 * time.Second):
		cmd.Process.Kill()
		t.Errorf("%s: %q did not exit", what, argv)
	}
}
