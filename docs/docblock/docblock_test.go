package docblock

import (
	"strings"
	"testing"
)

func TestAll(t *testing.T) {
	doc := "# t\n\n<!-- block: one -->\n```sh\necho 1\necho 2\n```\n\ntext\n\n<!-- block: two -->\n```yaml\na: b\n```\n"
	blocks, err := All(doc)
	if err != nil {
		t.Fatal(err)
	}
	if len(blocks) != 2 || blocks[0] != (Block{"one", "sh", "echo 1\necho 2\n"}) || blocks[1] != (Block{"two", "yaml", "a: b\n"}) {
		t.Errorf("got %+v", blocks)
	}
	if _, err := Find(doc, "three"); err == nil {
		t.Error("Find of a missing block succeeded")
	}
}

func TestErrors(t *testing.T) {
	for name, doc := range map[string]string{
		"no fence":    "<!-- block: a -->\ntext\n",
		"unclosed":    "<!-- block: a -->\n```sh\necho\n",
		"named twice": "<!-- block: a -->\n```sh\n```\n<!-- block: a -->\n```sh\n```\n",
	} {
		if _, err := All(doc); err == nil || !strings.Contains(err.Error(), `"a"`) {
			t.Errorf("%s: err = %v, want an error naming the block", name, err)
		}
	}
}

// TestIndented: a block in a list item loses its fence's indentation and
// keeps its own.
func TestIndented(t *testing.T) {
	doc := "1. Step:\n\n   <!-- block: item -->\n   ```yaml\n   - uses: x\n     with:\n       a: b\n   ```\n"
	b, err := Find(doc, "item")
	if err != nil {
		t.Fatal(err)
	}
	if want := (Block{"item", "yaml", "- uses: x\n  with:\n    a: b\n"}); b != want {
		t.Errorf("got %+v, want %+v", b, want)
	}
}
