package clients

import (
	"context"
	"database/sql"
	"net/http"

	"github.com/Azure/azure-sdk-for-go/sdk/storage/azblob"
	"github.com/Azure/azure-sdk-for-go/sdk/storage/azblob/blockblob"
	"github.com/Azure/azure-sdk-for-go/sdk/storage/azblob/container"
	"github.com/jackc/pgx/v5/pgxpool"
	"github.com/redis/go-redis/v9"
	"google.golang.org/grpc"
)

// shared is built once: the right way.
var shared = &http.Client{Transport: &http.Transport{MaxIdleConnsPerHost: 64}}

var rdb = redis.NewClient(&redis.Options{Addr: "127.0.0.1:6379"})

func Transports(w http.ResponseWriter, r *http.Request) {
	c := &http.Client{Transport: &http.Transport{}} // want `^http.Transport\{\} builds an HTTP transport \(connection pool\) on every request: each one opens its own connections, pays TCP and TLS handshakes again and keeps no warm keep-alive connection; build it once at start-up and share it.*\(SIO004\)$`
	_ = c
	var t http.Transport // a zero value declared is no literal: not flagged
	_ = &t
	t2 := http.DefaultTransport.(*http.Transport).Clone() // want `net/http.\(\*Transport\).Clone builds an HTTP transport`
	_ = t2
	_ = shared
}

func Pools(w http.ResponseWriter, r *http.Request) {
	ctx := r.Context()
	db, _ := sql.Open("postgres", "dsn") // want `^database/sql.Open builds a database connection pool on every request.*\(SIO004\)$`
	_ = db
	p, _ := pgxpool.New(ctx, "dsn") // want `pgxpool.New builds a PostgreSQL connection pool`
	_ = p
	c := redis.NewClient(&redis.Options{}) // want `redis.NewClient builds a Redis connection pool`
	_ = c.Get(ctx, "k")
	_ = rdb.Get(ctx, "k")             // a shared client: fine
	cc, _ := grpc.Dial("127.0.0.1:1") // want `grpc.Dial builds a gRPC client connection`
	_ = cc
	cc2, _ := grpc.NewClient("127.0.0.1:1") // want `grpc.NewClient builds a gRPC client connection`
	_ = cc2
}

func Blobs(w http.ResponseWriter, r *http.Request) {
	a, _ := azblob.NewClient("https://x", nil, nil)                   // want `azblob.NewClient builds an Azure Blob client`
	b, _ := container.NewClientFromConnectionString("cs", "c", nil)   // want `container.NewClientFromConnectionString builds an Azure Blob client`
	c, _ := blockblob.NewClientWithNoCredential("https://x/c/b", nil) // want `blockblob.NewClientWithNoCredential builds an Azure Blob client`
	_, _, _ = a, b, c
	_ = newBlob() // want `^Blobs calls clients.newBlob → azblob.NewClientFromConnectionString, which builds an Azure Blob client.*\(SIO004\)$`
}

func newBlob() *azblob.Client { // want newBlob:`^blocks\(SIO004: azblob.NewClientFromConnectionString\)$`
	c, _ := azblob.NewClientFromConnectionString("cs", nil)
	return c
}

// Setup runs at start-up, not on a request: nothing is reported here, but
// a handler calling it would be.
func Setup(ctx context.Context) *http.Client { // want Setup:`^blocks\(SIO004: http.Transport\{\}\) \+ ctxunused$`
	return &http.Client{Transport: &http.Transport{}}
}
