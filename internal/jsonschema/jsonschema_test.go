package jsonschema

import (
	"os"
	"strings"
	"testing"
)

const small = `{
  "type": "object",
  "additionalProperties": false,
  "required": ["version", "runs"],
  "properties": {
    "version": {"enum": ["2.1.0"], "type": "string"},
    "uri": {"type": "string", "format": "uri-reference"},
    "base": {"type": "string", "format": "uri"},
    "when": {"type": "string", "format": "date-time"},
    "mime": {"type": "string", "pattern": "[^/]+/.+"},
    "runs": {"type": ["array", "null"], "minItems": 1, "uniqueItems": true, "items": {"$ref": "#/definitions/run"}},
    "either": {"anyOf": [{"type": "string"}, {"type": "integer"}]},
    "one": {"oneOf": [{"type": "integer"}, {"type": "number"}]},
    "bag": {"type": "object", "additionalProperties": {"type": "string"}}
  },
  "definitions": {
    "run": {"type": "object", "properties": {"order": {"type": "integer", "minimum": -1, "maximum": 10}}}
  }
}`

func TestValidate(t *testing.T) {
	s, err := Parse([]byte(small))
	if err != nil {
		t.Fatal(err)
	}
	ok := `{"version": "2.1.0", "runs": [{"order": -1}, {"order": 10}], "uri": "a/b%20c.go", "base": "file:///x/",
		"when": "2026-11-23T12:00:00Z", "mime": "text/plain", "either": 3, "one": 1.5, "bag": {"k": "v"}}`
	if err := s.Validate([]byte(ok)); err != nil {
		t.Errorf("valid document rejected: %v", err)
	}
	bad := []struct{ doc, want string }{
		{`{"runs": []}`, `missing required property "version"`},
		{`{"version": "2.0.0", "runs": [{}]}`, `is not one of`},
		{`{"version": "2.1.0", "runs": [{}], "extra": 1}`, `property "extra" is not allowed`},
		{`{"version": "2.1.0", "runs": []}`, `0 items, fewer than 1`},
		{`{"version": "2.1.0", "runs": [{}, {}]}`, `items 0 and 1 are equal`},
		{`{"version": "2.1.0", "runs": [{"order": -2}]}`, `/runs/0/order: -2 is less than the minimum -1`},
		{`{"version": "2.1.0", "runs": [{"order": 11}]}`, `more than the maximum`},
		{`{"version": "2.1.0", "runs": [{"order": 1.5}]}`, `not of type integer`},
		{`{"version": "2.1.0", "runs": "x"}`, `not of type array or null`},
		{`{"version": "2.1.0", "runs": [{}], "uri": "a b.go"}`, `not a valid uri-reference`},
		{`{"version": "2.1.0", "runs": [{}], "base": "x/y"}`, `not a valid uri`},
		{`{"version": "2.1.0", "runs": [{}], "when": "yesterday"}`, `not a valid date-time`},
		{`{"version": "2.1.0", "runs": [{}], "mime": "plain"}`, `does not match the pattern`},
		{`{"version": "2.1.0", "runs": [{}], "either": true}`, `0 of the 2 schemas of anyOf match`},
		{`{"version": "2.1.0", "runs": [{}], "one": 1}`, `2 of the 2 schemas of oneOf match`},
		{`{"version": "2.1.0", "runs": [{}], "bag": {"k": 1}}`, `/bag/k: a number is not of type string`},
		{`{"version": "2.1.0", "runs": [{}]} {}`, `trailing data`},
	}
	for _, b := range bad {
		err := s.Validate([]byte(b.doc))
		if err == nil || !strings.Contains(err.Error(), b.want) {
			t.Errorf("%s: got %v, want an error containing %q", b.doc, err, b.want)
		}
	}
	// null passes "type": ["array", "null"].
	if err := s.Validate([]byte(`{"version": "2.1.0", "runs": null}`)); err != nil {
		t.Error(err)
	}
}

// TestUnsupported: a schema keyword this package does not check is an
// error, not silently ignored.
func TestUnsupported(t *testing.T) {
	for _, sch := range []string{
		`{"type": "string", "maxLength": 3}`,
		`{"properties": {"a": {"format": "email"}}}`,
		`{"$ref": "#/definitions/nope"}`,
		`{"$ref": "other.json#/x"}`,
	} {
		if _, err := Parse([]byte(sch)); err == nil {
			t.Errorf("%s: accepted", sch)
		}
	}
}

// TestSARIFSchema: the SARIF 2.1.0 schema uses only what this package
// checks.
func TestSARIFSchema(t *testing.T) {
	b, err := os.ReadFile("../sarif/testdata/sarif-schema-2.1.0.json")
	if err != nil {
		t.Fatal(err)
	}
	if _, err := Parse(b); err != nil {
		t.Fatal(err)
	}
}
