package temporal_test

import (
	"bytes"
	"context"
	"crypto/md5"
	"encoding/hex"
	"errors"
	"fmt"
	"net/http"
	"net/http/httptest"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"sync/atomic"
	"syscall"
	"testing"
	"time"

	"github.com/Azure/azure-sdk-for-go/sdk/storage/azblob"
	"github.com/Azure/azure-sdk-for-go/sdk/storage/azblob/bloberror"
	enumspb "go.temporal.io/api/enums/v1"
	"go.temporal.io/sdk/client"
	sdktemporal "go.temporal.io/sdk/temporal"
	"go.temporal.io/sdk/worker"

	"github.com/syncio/syncio/api/activity/order"
	"github.com/syncio/syncio/api/activity/temporal"
	"github.com/syncio/syncio/api/activity/temporal/temporaltest"
	"github.com/syncio/syncio/fakes/blobserver"
)

// The crash test runs its workers as child processes of the test binary,
// so that it can SIGKILL one. These variables configure a child; with
// envWorker set, TestMain runs the worker instead of the tests.
const (
	envWorker   = "SYNCIO_TEST_WORKER"     // the worker's mode: hold, fail or normal
	envHostPort = "SYNCIO_TEST_HOSTPORT"   // the Temporal frontend
	envStorage  = "SYNCIO_TEST_STORAGE"    // the blob store's connection string
	envDir      = "SYNCIO_TEST_DIR"        // where the worker logs its calls
	container   = "receipts-durability"    // holds the receipts
	heartbeat   = 2 * time.Second          // how soon a killed worker's activity is retried
	callsFile   = "calls"                  // one line per service call, across workers
	holdingFile = "holding"                // created by a hold worker's upload
	failMessage = "storage refused (test)" // every upload of a fail worker
)

func TestMain(m *testing.M) {
	if mode := os.Getenv(envWorker); mode != "" {
		if err := runWorker(mode); err != nil {
			fmt.Fprintln(os.Stderr, "worker:", err)
			os.Exit(1)
		}
		os.Exit(0)
	}
	os.Exit(m.Run())
}

// logCall appends one line to the shared calls file. O_APPEND keeps lines
// from different processes whole.
func logCall(dir, line string) error {
	f, err := os.OpenFile(filepath.Join(dir, callsFile), os.O_APPEND|os.O_CREATE|os.O_WRONLY, 0o644)
	if err != nil {
		return err
	}
	_, err = f.WriteString(line + "\n")
	return errors.Join(err, f.Close())
}

// runWorker is a worker process: the order template, with real azblob
// calls to the test's blob store, until SIGTERM or SIGKILL. In mode hold
// its uploads never finish, in mode fail they always fail.
func runWorker(mode string) error {
	dir := os.Getenv(envDir)
	blobs, err := azblob.NewClientFromConnectionString(os.Getenv(envStorage), nil)
	if err != nil {
		return err
	}
	svc := order.Services{
		Profile: func(ctx context.Context) (order.Profile, error) {
			return order.Profile{FirstName: "Grace", LastName: "Hopper"}, logCall(dir, "profile")
		},
		Upload: func(ctx context.Context, name string, data []byte) (order.Blob, error) {
			if err := logCall(dir, "upload-start "+name); err != nil {
				return order.Blob{}, err
			}
			switch mode {
			case "hold":
				if err := os.WriteFile(filepath.Join(dir, holdingFile), nil, 0o644); err != nil {
					return order.Blob{}, err
				}
				<-ctx.Done() // until the test kills this process
				return order.Blob{}, ctx.Err()
			case "fail":
				return order.Blob{}, errors.New(failMessage)
			}
			if _, err := blobs.UploadBuffer(ctx, container, name, data, nil); err != nil {
				return order.Blob{}, err
			}
			sum := md5.Sum(data)
			return order.Blob{Name: name, Size: int64(len(data)), MD5: hex.EncodeToString(sum[:])}, logCall(dir, "upload-done "+name)
		},
		Delete: func(ctx context.Context, name string) error {
			if err := logCall(dir, "delete "+name); err != nil {
				return err
			}
			_, err := blobs.DeleteBlob(ctx, container, name, nil)
			if bloberror.HasCode(err, bloberror.BlobNotFound) {
				return nil
			}
			return err
		},
	}
	c, err := client.Dial(client.Options{HostPort: os.Getenv(envHostPort)})
	if err != nil {
		return err
	}
	defer c.Close()
	w := worker.New(c, temporal.TaskQueue, worker.Options{})
	temporal.Register(w, order.New(order.ModeAsync, svc),
		temporal.WithHeartbeat(heartbeat),
		temporal.WithRetry(&sdktemporal.RetryPolicy{InitialInterval: 200 * time.Millisecond, BackoffCoefficient: 1, MaximumAttempts: 3}))
	return w.Run(worker.InterruptCh())
}

// startWorker starts a worker process in mode; it is killed when t ends.
func startWorker(t *testing.T, mode, hostPort, storage, dir string) *exec.Cmd {
	t.Helper()
	exe, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	cmd := exec.Command(exe)
	cmd.Env = append(os.Environ(), envWorker+"="+mode, envHostPort+"="+hostPort, envStorage+"="+storage, envDir+"="+dir)
	cmd.Stderr = os.Stderr
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		_ = cmd.Process.Kill()
		_ = cmd.Wait()
	})
	return cmd
}

func countLines(t *testing.T, dir, line string) int {
	t.Helper()
	data, err := os.ReadFile(filepath.Join(dir, callsFile))
	if err != nil && !os.IsNotExist(err) {
		t.Fatal(err)
	}
	n := 0
	for _, l := range strings.Split(string(data), "\n") {
		if l == line {
			n++
		}
	}
	return n
}

// TestCrashBetweenProfileAndUpload is the durability proof: a worker is
// SIGKILLed after the profile activity has completed and while the upload
// is in flight; a new worker finishes the order from Temporal's history.
func TestCrashBetweenProfileAndUpload(t *testing.T) {
	srv := temporaltest.Start(t)
	dir := t.TempDir()

	// The blob store lives in the test process, shared by every worker; it
	// counts the receipt PUTs that reach it.
	var puts atomic.Int32
	bs := blobserver.New()
	hs := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.Method == http.MethodPut && strings.Contains(r.URL.Path, "/receipts/") {
			puts.Add(1)
		}
		bs.Handler().ServeHTTP(w, r)
	}))
	t.Cleanup(hs.Close)
	storage := blobserver.ConnectionStringFor(hs.URL + "/devstoreaccount1")
	blobs, err := azblob.NewClientFromConnectionString(storage, nil)
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()
	if _, err := blobs.CreateContainer(ctx, container, nil); err != nil {
		t.Fatal(err)
	}

	first := startWorker(t, "hold", srv.HostPort, storage, dir)
	o := testOrder("crash1")
	run, err := srv.Client().ExecuteWorkflow(ctx, client.StartWorkflowOptions{ID: "crash-order-1", TaskQueue: temporal.TaskQueue}, "Order", o)
	if err != nil {
		t.Fatal(err)
	}

	// Wait until the profile's result is in the history and the upload is
	// the only activity left, held inside the first worker.
	deadline := time.Now().Add(time.Minute)
	for {
		d, err := srv.Client().DescribeWorkflow(ctx, run.GetID(), run.GetRunID())
		if err != nil {
			t.Fatal(err)
		}
		pending := d.RawResponse.GetPendingActivities()
		_, holdErr := os.Stat(filepath.Join(dir, holdingFile))
		if holdErr == nil && countLines(t, dir, "profile") == 1 && len(pending) == 1 &&
			pending[0].GetActivityType().GetName() == "Order/Parallel/UploadReceipt" {
			break
		}
		if time.Now().After(deadline) {
			t.Fatalf("the first worker never reached the upload with the profile done: %d pending", len(pending))
		}
		time.Sleep(50 * time.Millisecond)
	}
	if err := first.Process.Signal(syscall.SIGKILL); err != nil {
		t.Fatal(err)
	}
	_ = first.Wait()

	second := startWorker(t, "normal", srv.HostPort, storage, dir)
	var conf order.Confirmation
	if err := run.Get(ctx, &conf); err != nil {
		t.Fatalf("order after the crash: %v", err)
	}

	// Exactly once: one completed run, the profile not asked again, one
	// upload finished, one PUT stored, no compensation.
	d, err := srv.Client().DescribeWorkflow(ctx, run.GetID(), "")
	if err != nil {
		t.Fatal(err)
	}
	if st := d.RawResponse.GetWorkflowExecutionInfo().GetStatus(); st != enumspb.WORKFLOW_EXECUTION_STATUS_COMPLETED || d.RawResponse.GetWorkflowExecutionInfo().GetExecution().GetRunId() != run.GetRunID() {
		t.Errorf("workflow status %v, run %s; want completed, run %s", st, d.RawResponse.GetWorkflowExecutionInfo().GetExecution().GetRunId(), run.GetRunID())
	}
	name := order.ReceiptName(o)
	if got := countLines(t, dir, "profile"); got != 1 {
		t.Errorf("profile calls = %d, want 1: its result should come from the history", got)
	}
	if got := countLines(t, dir, "upload-start "+name); got != 2 {
		t.Errorf("upload attempts = %d, want 2 (the killed one and the retry)", got)
	}
	if got := countLines(t, dir, "upload-done "+name); got != 1 {
		t.Errorf("finished uploads = %d, want 1", got)
	}
	if got := countLines(t, dir, "delete "+name); got != 0 {
		t.Errorf("compensation ran %d times for a completed order", got)
	}
	if got := puts.Load(); got != 1 {
		t.Errorf("receipt PUTs = %d, want 1", got)
	}
	var stored bytes.Buffer
	resp, err := blobs.DownloadStream(ctx, container, name, nil)
	if err != nil {
		t.Fatalf("receipt blob: %v", err)
	}
	_, err = stored.ReadFrom(resp.Body)
	_ = resp.Body.Close()
	if err != nil {
		t.Fatal(err)
	}
	sum := md5.Sum(stored.Bytes())
	if conf.Receipt.Name != name || conf.Receipt.MD5 != hex.EncodeToString(sum[:]) || conf.Receipt.Size != int64(stored.Len()) {
		t.Errorf("confirmation receipt %+v, stored %d bytes with md5 %x", conf.Receipt, stored.Len(), sum)
	}
	if conf.Customer != "Grace Hopper" || conf.TotalCents != 1449 || conf.Status != "confirmed" {
		t.Errorf("confirmation = %+v", conf)
	}
	// Now the upload fails for good. Only a fail worker polls: every
	// attempt fails, the workflow faults and its compensation deletes the
	// receipt that an earlier, lost attempt left (planted here).
	if err := second.Process.Signal(syscall.SIGKILL); err != nil {
		t.Fatal(err)
	}
	_ = second.Wait()
	startWorker(t, "fail", srv.HostPort, storage, dir)
	o2 := testOrder("crash2")
	name2 := order.ReceiptName(o2)
	if _, err := blobs.UploadBuffer(ctx, container, name2, []byte("left by a lost attempt"), nil); err != nil {
		t.Fatal(err)
	}
	run2, err := srv.Client().ExecuteWorkflow(ctx, client.StartWorkflowOptions{ID: "crash-order-2", TaskQueue: temporal.TaskQueue}, "Order", o2)
	if err != nil {
		t.Fatal(err)
	}
	err = run2.Get(ctx, nil)
	if err == nil || !strings.Contains(err.Error(), "Order/Parallel/UploadReceipt") || !strings.Contains(err.Error(), failMessage) {
		t.Fatalf("order with a failing upload: err = %v, want the upload's failure with its path", err)
	}
	if got := countLines(t, dir, "upload-start "+name2); got != 3 {
		t.Errorf("upload attempts = %d, want 3 (the retry policy's maximum)", got)
	}
	if got := countLines(t, dir, "delete "+name2); got != 1 {
		t.Errorf("compensation ran %d times, want 1", got)
	}
	if _, err := blobs.DownloadStream(ctx, container, name2, nil); !bloberror.HasCode(err, bloberror.BlobNotFound) {
		t.Errorf("receipt of the failed order: %v, want BlobNotFound", err)
	}
	if got := countLines(t, dir, "delete "+name); got != 0 {
		t.Errorf("the failed order's compensation touched the first order's receipt")
	}
}

// TestCancelledSiblingStopsBeforeCompensation: on a real server, the
// profile fails for good while the upload is in flight; the upload learns
// of its cancellation at a heartbeat, and the compensation (DeleteReceipt)
// runs only once it has stopped, so it cannot delete a receipt before the
// upload stores it.
func TestCancelledSiblingStopsBeforeCompensation(t *testing.T) {
	srv := temporaltest.Start(t)
	var mu sync.Mutex
	var events []string
	record := func(e string) {
		mu.Lock()
		defer mu.Unlock()
		events = append(events, e)
	}
	uploading := make(chan struct{})
	var once sync.Once
	wf := order.New(order.ModeAsync, order.Services{
		Profile: func(ctx context.Context) (order.Profile, error) {
			select {
			case <-uploading:
			case <-ctx.Done():
			}
			return order.Profile{}, sdktemporal.NewNonRetryableApplicationError("profile down", "ProfileDown", nil)
		},
		Upload: func(ctx context.Context, _ string, _ []byte) (order.Blob, error) {
			once.Do(func() { close(uploading) })
			<-ctx.Done()
			record("upload stopped")
			return order.Blob{}, ctx.Err()
		},
		Delete: func(context.Context, string) error {
			record("delete")
			return nil
		},
	})
	const queue = "syncio-cancel-test"
	w := worker.New(srv.Client(), queue, worker.Options{})
	temporal.Register(w, wf, temporal.WithHeartbeat(time.Second))
	if err := w.Start(); err != nil {
		t.Fatal(err)
	}
	defer w.Stop()
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	run, err := srv.Client().ExecuteWorkflow(ctx, client.StartWorkflowOptions{ID: "cancel-order-1", TaskQueue: queue}, wf.Name(), testOrder("cancel1"))
	if err != nil {
		t.Fatal(err)
	}
	if err := run.Get(ctx, nil); err == nil || !strings.Contains(err.Error(), "profile down") {
		t.Fatalf("order with a failing profile: err = %v", err)
	}
	mu.Lock()
	defer mu.Unlock()
	if len(events) != 2 || events[0] != "upload stopped" || events[1] != "delete" {
		t.Errorf("events %q, want the upload stopped before the compensation", events)
	}
}
