package docblock

import (
	"fmt"
	"regexp"
	"strings"
)

// Block is one named fenced code block.
type Block struct {
	Name string
	Lang string // the fence's info string, e.g. "sh" or "yaml"
	Body string // the lines between the fences, each ending in "\n"
}

var marker = regexp.MustCompile(`^<!-- block: ([a-z0-9-]+) -->$`)

// All returns the named blocks of doc in order. A marker that is not
// followed by a fenced block, an unterminated fence, and a name used twice
// are errors, so a broken doc fails its test instead of skipping a block.
func All(doc string) ([]Block, error) {
	lines := strings.Split(doc, "\n")
	seen := map[string]bool{}
	var out []Block
	for i := 0; i < len(lines); i++ {
		m := marker.FindStringSubmatch(strings.TrimSpace(lines[i]))
		if m == nil {
			continue
		}
		name := m[1]
		if seen[name] {
			return nil, fmt.Errorf("line %d: block %q is named twice", i+1, name)
		}
		seen[name] = true
		if i+1 >= len(lines) || !strings.HasPrefix(strings.TrimLeft(lines[i+1], " "), "```") {
			return nil, fmt.Errorf("line %d: block %q: the marker must be followed by a ``` fence", i+1, name)
		}
		// A block in a list item is indented as its fence is; the body
		// loses that indentation, as Markdown renders it.
		indent := lines[i+1][:len(lines[i+1])-len(strings.TrimLeft(lines[i+1], " "))]
		b := Block{Name: name, Lang: strings.TrimSpace(strings.TrimPrefix(strings.TrimLeft(lines[i+1], " "), "```"))}
		var body strings.Builder
		end := -1
		for j := i + 2; j < len(lines); j++ {
			if strings.TrimSpace(lines[j]) == "```" {
				end = j
				break
			}
			body.WriteString(strings.TrimPrefix(lines[j], indent) + "\n")
		}
		if end < 0 {
			return nil, fmt.Errorf("line %d: block %q has no closing fence", i+1, name)
		}
		b.Body = body.String()
		out = append(out, b)
		i = end
	}
	return out, nil
}

// Find returns the block called name.
func Find(doc, name string) (Block, error) {
	blocks, err := All(doc)
	if err != nil {
		return Block{}, err
	}
	for _, b := range blocks {
		if b.Name == name {
			return b, nil
		}
	}
	return Block{}, fmt.Errorf("no block named %q (mark it with <!-- block: %s -->)", name, name)
}
