// Package jsonschema validates JSON documents against a draft-04 JSON
// Schema, for tests.
//
// It covers the keywords the SARIF 2.1.0 schema uses (type, $ref,
// properties, additionalProperties, required, items, minItems, uniqueItems,
// minimum, maximum, enum, pattern, format uri, uri-reference and date-time,
// anyOf, oneOf) and refuses a schema that uses any other validation
// keyword, so a pass never means "not checked".
package jsonschema

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"math/big"
	"net/url"
	"regexp"
	"sort"
	"strconv"
	"strings"
	"time"
)

// Schema is a parsed schema.
type Schema struct {
	root     any
	patterns map[string]*regexp.Regexp
}

// annotations are keywords that do not constrain a value.
var annotations = map[string]bool{
	"$schema": true, "id": true, "$id": true, "title": true, "description": true, "default": true, "definitions": true,
}

var validators = map[string]bool{
	"type": true, "$ref": true, "properties": true, "additionalProperties": true, "required": true,
	"items": true, "minItems": true, "uniqueItems": true, "minimum": true, "maximum": true,
	"enum": true, "pattern": true, "format": true, "anyOf": true, "oneOf": true,
}

// Parse reads a schema and checks that it uses only supported keywords.
func Parse(data []byte) (*Schema, error) {
	root, err := decode(data)
	if err != nil {
		return nil, fmt.Errorf("schema: %v", err)
	}
	s := &Schema{root: root, patterns: map[string]*regexp.Regexp{}}
	if err := s.check(root, "#"); err != nil {
		return nil, err
	}
	return s, nil
}

func decode(data []byte) (any, error) {
	dec := json.NewDecoder(bytes.NewReader(data))
	dec.UseNumber()
	var v any
	if err := dec.Decode(&v); err != nil {
		return nil, err
	}
	if dec.More() {
		return nil, errors.New("trailing data after the JSON value")
	}
	return v, nil
}

// check walks a schema object: every keyword is known, every pattern
// compiles, every format is one this package checks.
func (s *Schema) check(v any, at string) error {
	m, ok := v.(map[string]any)
	if !ok {
		return fmt.Errorf("schema %s: not an object", at)
	}
	for k, sub := range m {
		switch {
		case annotations[k]:
			if k == "definitions" {
				for name, d := range sub.(map[string]any) {
					if err := s.check(d, at+"/definitions/"+name); err != nil {
						return err
					}
				}
			}
		case !validators[k]:
			return fmt.Errorf("schema %s: unsupported keyword %q", at, k)
		case k == "properties":
			for name, d := range sub.(map[string]any) {
				if err := s.check(d, at+"/properties/"+name); err != nil {
					return err
				}
			}
		case k == "items":
			if err := s.check(sub, at+"/items"); err != nil {
				return err
			}
		case k == "additionalProperties":
			if _, isBool := sub.(bool); !isBool {
				if err := s.check(sub, at+"/additionalProperties"); err != nil {
					return err
				}
			}
		case k == "anyOf" || k == "oneOf":
			for i, d := range sub.([]any) {
				if err := s.check(d, fmt.Sprintf("%s/%s/%d", at, k, i)); err != nil {
					return err
				}
			}
		case k == "pattern":
			re, err := regexp.Compile(sub.(string))
			if err != nil {
				return fmt.Errorf("schema %s: pattern: %v", at, err)
			}
			s.patterns[sub.(string)] = re
		case k == "format":
			switch sub {
			case "uri", "uri-reference", "date-time":
			default:
				return fmt.Errorf("schema %s: unsupported format %q", at, sub)
			}
		case k == "$ref":
			if _, err := s.resolve(sub.(string)); err != nil {
				return fmt.Errorf("schema %s: %v", at, err)
			}
		}
	}
	return nil
}

// resolve follows a local JSON pointer ("#/definitions/x").
func (s *Schema) resolve(ref string) (any, error) {
	if !strings.HasPrefix(ref, "#") {
		return nil, fmt.Errorf("$ref %q: only local references are supported", ref)
	}
	v := s.root
	for _, part := range strings.Split(strings.TrimPrefix(ref, "#"), "/")[1:] {
		part = strings.ReplaceAll(strings.ReplaceAll(part, "~1", "/"), "~0", "~")
		m, ok := v.(map[string]any)
		if !ok {
			return nil, fmt.Errorf("$ref %q: no such schema", ref)
		}
		if v, ok = m[part]; !ok {
			return nil, fmt.Errorf("$ref %q: no such schema", ref)
		}
	}
	return v, nil
}

// Validate checks a JSON document against the schema. The error lists
// every violation found, each with its JSON pointer.
func (s *Schema) Validate(data []byte) error {
	doc, err := decode(data)
	if err != nil {
		return err
	}
	var errs []string
	s.validate(s.root, doc, "", &errs)
	if len(errs) > 0 {
		sort.Strings(errs)
		return errors.New(strings.Join(errs, "\n"))
	}
	return nil
}

func (s *Schema) validate(schema, v any, at string, errs *[]string) {
	sch := schema.(map[string]any)
	fail := func(format string, args ...any) {
		where := at
		if where == "" {
			where = "/"
		}
		*errs = append(*errs, where+": "+fmt.Sprintf(format, args...))
	}
	if ref, ok := sch["$ref"].(string); ok {
		target, _ := s.resolve(ref) // checked by Parse
		s.validate(target, v, at, errs)
	}
	if t, ok := sch["type"]; ok {
		var types []string
		switch t := t.(type) {
		case string:
			types = []string{t}
		case []any:
			for _, x := range t {
				types = append(types, x.(string))
			}
		}
		match := false
		for _, ty := range types {
			match = match || hasType(v, ty)
		}
		if !match {
			fail("%s is not of type %s", kind(v), strings.Join(types, " or "))
			return
		}
	}
	if e, ok := sch["enum"].([]any); ok {
		found := false
		for _, x := range e {
			found = found || canonical(x) == canonical(v)
		}
		if !found {
			fail("%s is not one of %s", canonical(v), canonical(e))
		}
	}
	for _, k := range []string{"anyOf", "oneOf"} {
		alts, ok := sch[k].([]any)
		if !ok {
			continue
		}
		n := 0
		for _, alt := range alts {
			var sub []string
			s.validate(alt, v, at, &sub)
			if len(sub) == 0 {
				n++
			}
		}
		if n == 0 || k == "oneOf" && n > 1 {
			fail("%d of the %d schemas of %s match", n, len(alts), k)
		}
	}
	switch v := v.(type) {
	case map[string]any:
		s.validateObject(sch, v, at, errs, fail)
	case []any:
		if min, ok := sch["minItems"].(json.Number); ok {
			if n, _ := min.Int64(); int64(len(v)) < n {
				fail("%d items, fewer than %d", len(v), n)
			}
		}
		if u, _ := sch["uniqueItems"].(bool); u {
			seen := map[string]int{}
			for i, x := range v {
				c := canonical(x)
				if j, dup := seen[c]; dup {
					fail("items %d and %d are equal", j, i)
				}
				seen[c] = i
			}
		}
		if items, ok := sch["items"]; ok {
			for i, x := range v {
				s.validate(items, x, at+"/"+strconv.Itoa(i), errs)
			}
		}
	case json.Number:
		x, _ := new(big.Float).SetString(v.String())
		if min, ok := sch["minimum"].(json.Number); ok {
			m, _ := new(big.Float).SetString(min.String())
			if x.Cmp(m) < 0 {
				fail("%s is less than the minimum %s", v, min)
			}
		}
		if max, ok := sch["maximum"].(json.Number); ok {
			m, _ := new(big.Float).SetString(max.String())
			if x.Cmp(m) > 0 {
				fail("%s is more than the maximum %s", v, max)
			}
		}
	case string:
		if p, ok := sch["pattern"].(string); ok && !s.patterns[p].MatchString(v) {
			fail("%q does not match the pattern %q", v, p)
		}
		if f, ok := sch["format"].(string); ok {
			if err := checkFormat(f, v); err != nil {
				fail("%q is not a valid %s: %v", v, f, err)
			}
		}
	}
}

func (s *Schema) validateObject(sch map[string]any, v map[string]any, at string, errs *[]string, fail func(string, ...any)) {
	if req, ok := sch["required"].([]any); ok {
		for _, r := range req {
			if _, has := v[r.(string)]; !has {
				fail("missing required property %q", r)
			}
		}
	}
	props, _ := sch["properties"].(map[string]any)
	keys := make([]string, 0, len(v))
	for k := range v {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	for _, k := range keys {
		where := at + "/" + strings.ReplaceAll(strings.ReplaceAll(k, "~", "~0"), "/", "~1")
		if p, ok := props[k]; ok {
			s.validate(p, v[k], where, errs)
			continue
		}
		switch ap := sch["additionalProperties"].(type) {
		case bool:
			if !ap {
				fail("property %q is not allowed", k)
			}
		case map[string]any:
			s.validate(ap, v[k], where, errs)
		}
	}
}

func hasType(v any, ty string) bool {
	switch ty {
	case "object":
		_, ok := v.(map[string]any)
		return ok
	case "array":
		_, ok := v.([]any)
		return ok
	case "string":
		_, ok := v.(string)
		return ok
	case "boolean":
		_, ok := v.(bool)
		return ok
	case "null":
		return v == nil
	case "number":
		_, ok := v.(json.Number)
		return ok
	case "integer":
		n, ok := v.(json.Number)
		if !ok {
			return false
		}
		f, _, err := big.ParseFloat(n.String(), 10, 200, big.ToNearestEven)
		return err == nil && f.IsInt()
	}
	return false
}

func kind(v any) string {
	switch v.(type) {
	case map[string]any:
		return "an object"
	case []any:
		return "an array"
	case string:
		return "a string"
	case bool:
		return "a boolean"
	case json.Number:
		return "a number"
	case nil:
		return "null"
	}
	return fmt.Sprintf("%T", v)
}

// canonical renders a decoded value with sorted keys, for equality.
func canonical(v any) string {
	b, _ := json.Marshal(v) // maps marshal with sorted keys
	return string(b)
}

func checkFormat(format, s string) error {
	switch format {
	case "date-time":
		_, err := time.Parse(time.RFC3339Nano, s)
		return err
	case "uri", "uri-reference":
		if strings.ContainsAny(s, " \t\n\\\"<>{}|^`") {
			return errors.New("contains a character a URI cannot hold unescaped")
		}
		u, err := url.Parse(s)
		if err != nil {
			return err
		}
		if format == "uri" && u.Scheme == "" {
			return errors.New("not absolute: no scheme")
		}
	}
	return nil
}
