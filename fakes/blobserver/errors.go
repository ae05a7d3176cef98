package blobserver

import (
	"encoding/xml"
	"fmt"
	"net/http"
	"strconv"
)

// storageError is an error the service reports to the client with its REST error code.
type storageError struct {
	status  int
	code    string
	message string
}

func (e *storageError) Error() string {
	return fmt.Sprintf("%d %s: %s", e.status, e.code, e.message)
}

func errorf(status int, code, format string, args ...any) *storageError {
	return &storageError{status: status, code: code, message: fmt.Sprintf(format, args...)}
}

// The error codes this fake uses, spelled as the service spells them.
const (
	codeContainerAlreadyExists     = "ContainerAlreadyExists"
	codeContainerNotFound          = "ContainerNotFound"
	codeBlobNotFound               = "BlobNotFound"
	codeInvalidResourceName        = "InvalidResourceName"
	codeInvalidQueryParameterValue = "InvalidQueryParameterValue"
	codeInvalidHeaderValue         = "InvalidHeaderValue"
	codeMissingRequiredHeader      = "MissingRequiredHeader"
	codeInvalidBlockList           = "InvalidBlockList"
	codeInvalidXMLDocument         = "InvalidXmlDocument"
	codeInvalidRange               = "InvalidRange"
	codeMd5Mismatch                = "Md5Mismatch"
	codeRequestBodyTooLarge        = "RequestBodyTooLarge"
	codeUnsupportedHTTPVerb        = "UnsupportedHttpVerb"
	codeNotImplemented             = "NotImplemented"
	codeServerBusy                 = "ServerBusy"
	codeInternalError              = "InternalError"
	codeStorageFull                = "FakeStorageFull" // not a service code: the fake's memory cap
	codeResourceNotFound           = "ResourceNotFound"
	codeConditionNotMet            = "ConditionNotMet"
	codeBlobAlreadyExists          = "BlobAlreadyExists"
)

// errConditionNotMet is the service's answer to a failed If-Match or If-None-Match, on
// reads and writes alike.
func errConditionNotMet() *storageError {
	return errorf(http.StatusPreconditionFailed, codeConditionNotMet,
		"the condition specified using HTTP conditional header(s) is not met")
}

type errorDoc struct {
	XMLName xml.Name `xml:"Error"`
	Code    string   `xml:"Code"`
	Message string   `xml:"Message"`
}

// writeError answers like the service: code in a header (which azcore reads first) and in
// the XML body. HEAD responses carry no body, so the header is what the SDK sees there.
func writeError(w http.ResponseWriter, r *http.Request, e *storageError) {
	h := w.Header()
	h.Set("x-ms-error-code", e.code)
	if r.Method == http.MethodHead {
		w.WriteHeader(e.status)
		return
	}
	body, err := xml.Marshal(errorDoc{Code: e.code, Message: e.message})
	if err != nil { // cannot happen for two strings; keep the header-only answer
		w.WriteHeader(e.status)
		return
	}
	body = append([]byte(xml.Header), body...)
	h.Set("Content-Type", "application/xml")
	h.Set("Content-Length", strconv.Itoa(len(body)))
	w.WriteHeader(e.status)
	_, _ = w.Write(body) // the status is sent; a failed write means the client left
}
