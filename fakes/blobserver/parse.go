package blobserver

import (
	"encoding/base64"
	"encoding/xml"
	"errors"
	"fmt"
	"io"
	"net/http"
	"strconv"
	"strings"
	"unicode/utf8"
)

// Service limits this fake enforces, as documented for block blobs.
const (
	maxBlockIDBytes  = 64    // decoded size of a block ID
	maxBlocksPerList = 50000 // entries in a block list, and committed blocks per blob
	maxBlobNameLen   = 1024
)

// parseBlockID validates a block ID as the service does: base64 (standard alphabet, as the
// SDK encodes), decoding to 1..64 bytes. The encoded string itself is the block's key.
func parseBlockID(id string) error {
	if id == "" {
		return errorf(http.StatusBadRequest, codeInvalidQueryParameterValue, "blockid is empty")
	}
	raw, err := base64.StdEncoding.DecodeString(id)
	if err != nil {
		return errorf(http.StatusBadRequest, codeInvalidQueryParameterValue, "blockid %q is not base64: %v", id, err)
	}
	if len(raw) == 0 || len(raw) > maxBlockIDBytes {
		return errorf(http.StatusBadRequest, codeInvalidQueryParameterValue, "blockid decodes to %d bytes, want 1..%d", len(raw), maxBlockIDBytes)
	}
	return nil
}

// blockSource says where Put Block List looks a block up.
type blockSource int

const (
	fromLatest      blockSource = iota // uncommitted if present, else committed
	fromCommitted                      // the blob's current committed list
	fromUncommitted                    // staged with Put Block
)

func (s blockSource) String() string {
	switch s {
	case fromCommitted:
		return "Committed"
	case fromUncommitted:
		return "Uncommitted"
	default:
		return "Latest"
	}
}

type blockRef struct {
	source blockSource
	id     string
}

// parseBlockList reads a Put Block List body. Order matters (it is the blob's layout), and
// the three element kinds may interleave, so the document is walked token by token rather
// than unmarshalled into per-kind slices.
func parseBlockList(r io.Reader) ([]blockRef, error) {
	dec := xml.NewDecoder(r)
	bad := func(format string, args ...any) error {
		return errorf(http.StatusBadRequest, codeInvalidXMLDocument, format, args...)
	}
	var (
		refs    []blockRef
		inRoot  bool
		sawRoot bool
	)
	for {
		tok, err := dec.Token()
		if errors.Is(err, io.EOF) {
			break
		}
		if err != nil {
			return nil, bad("block list XML: %v", err)
		}
		switch t := tok.(type) {
		case xml.StartElement:
			if !inRoot {
				if sawRoot || t.Name.Local != "BlockList" {
					return nil, bad("root element is %q, want BlockList", t.Name.Local)
				}
				inRoot, sawRoot = true, true
				continue
			}
			var src blockSource
			switch t.Name.Local {
			case "Latest":
				src = fromLatest
			case "Committed":
				src = fromCommitted
			case "Uncommitted":
				src = fromUncommitted
			default:
				return nil, bad("unexpected element %q in BlockList", t.Name.Local)
			}
			var id string
			if err := dec.DecodeElement(&id, &t); err != nil {
				return nil, bad("block list entry: %v", err)
			}
			id = strings.TrimSpace(id)
			if err := parseBlockID(id); err != nil {
				var se *storageError
				if errors.As(err, &se) {
					return nil, errorf(http.StatusBadRequest, codeInvalidBlockList, "%s", se.message)
				}
				return nil, err
			}
			if len(refs) == maxBlocksPerList {
				return nil, errorf(http.StatusBadRequest, codeInvalidBlockList, "more than %d blocks", maxBlocksPerList)
			}
			refs = append(refs, blockRef{source: src, id: id})
		case xml.EndElement:
			if inRoot && t.Name.Local == "BlockList" {
				inRoot = false
			}
		case xml.CharData:
			if strings.TrimSpace(string(t)) != "" {
				return nil, bad("unexpected text %q", string(t))
			}
		}
	}
	if !sawRoot || inRoot {
		return nil, bad("missing or unterminated BlockList element")
	}
	return refs, nil
}

// byteRange is an inclusive range of a blob's bytes.
type byteRange struct{ first, last int64 }

func (b byteRange) len() int64 { return b.last - b.first + 1 }

// parseRange resolves a single-range "bytes=" spec (the form x-ms-range and Range take)
// against a blob of size bytes. Forms: "bytes=F-L", "bytes=F-" and "bytes=-N" (suffix).
// A malformed spec is a 400; a well-formed one that misses the blob is a 416.
func parseRange(spec string, size int64) (byteRange, error) {
	bad := errorf(http.StatusBadRequest, codeInvalidHeaderValue, "invalid range %q", spec)
	rest, ok := strings.CutPrefix(strings.TrimSpace(spec), "bytes=")
	if !ok || strings.Contains(rest, ",") {
		return byteRange{}, bad
	}
	firstS, lastS, ok := strings.Cut(rest, "-")
	if !ok {
		return byteRange{}, bad
	}
	num := func(s string) (int64, bool) {
		// Digits only: ParseInt would accept a sign.
		if s == "" || strings.TrimLeft(s, "0123456789") != "" {
			return 0, false
		}
		n, err := strconv.ParseInt(s, 10, 64)
		return n, err == nil
	}
	unsatisfiable := errorf(http.StatusRequestedRangeNotSatisfiable, codeInvalidRange,
		"the range %q is not satisfiable for a blob of %d bytes", spec, size)
	if firstS == "" { // suffix: the last N bytes
		n, ok := num(lastS)
		if !ok {
			return byteRange{}, bad
		}
		if n == 0 || size == 0 {
			return byteRange{}, unsatisfiable
		}
		return byteRange{first: max(size-n, 0), last: size - 1}, nil
	}
	first, ok := num(firstS)
	if !ok {
		return byteRange{}, bad
	}
	last := int64(-1)
	if lastS != "" {
		if last, ok = num(lastS); !ok || last < first {
			return byteRange{}, bad
		}
	}
	if first >= size {
		return byteRange{}, unsatisfiable
	}
	if last < 0 || last >= size {
		last = size - 1
	}
	return byteRange{first: first, last: last}, nil
}

// parseMD5 decodes a base64 MD5 header (Content-MD5, x-ms-blob-content-md5).
func parseMD5(name, v string) ([]byte, error) {
	sum, err := base64.StdEncoding.DecodeString(v)
	if err != nil || len(sum) != 16 {
		return nil, errorf(http.StatusBadRequest, codeInvalidHeaderValue, "%s %q is not a base64 MD5", name, v)
	}
	return sum, nil
}

// validContainerName applies the service's naming rule: 3-63 characters of lowercase
// letters, digits and single hyphens, starting and ending with a letter or digit.
func validContainerName(name string) bool {
	if len(name) < 3 || len(name) > 63 || name[0] == '-' || name[len(name)-1] == '-' || strings.Contains(name, "--") {
		return false
	}
	for _, c := range name {
		if (c < 'a' || c > 'z') && (c < '0' || c > '9') && c != '-' {
			return false
		}
	}
	return true
}

// validBlobName accepts 1..1024 characters of valid UTF-8 without control characters.
func validBlobName(name string) bool {
	if name == "" || utf8.RuneCountInString(name) > maxBlobNameLen || !utf8.ValidString(name) {
		return false
	}
	for _, c := range name {
		if c < 0x20 || c == 0x7f {
			return false
		}
	}
	return true
}

// splitPath splits "/account/container/blob/with/slashes" into its three parts; container
// and blob may be empty.
func splitPath(p string) (account, container, blob string, err error) {
	p = strings.TrimPrefix(p, "/")
	account, rest, _ := strings.Cut(p, "/")
	container, blob, _ = strings.Cut(rest, "/")
	if account == "" {
		return "", "", "", fmt.Errorf("no account in path %q", p)
	}
	return account, container, blob, nil
}
