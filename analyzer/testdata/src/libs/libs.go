// want package:`pending\(1\)`
// Package libs calls the SDKs of the library tables (docs/rules/libraries.md)
// from handlers: one context-less call per library (SIO001), its
// context-aware variant (no finding), and the client constructors (SIO004).
package libs

import (
	"bytes"
	"net/http"
	"strings"

	redis6 "github.com/go-redis/redis"
	redis7 "github.com/go-redis/redis/v7"
	"go.mongodb.org/mongo-driver/mongo"
	"go.mongodb.org/mongo-driver/mongo/gridfs"
	mongo2 "go.mongodb.org/mongo-driver/v2/mongo"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/feature/s3/manager"
	s3v2 "github.com/aws/aws-sdk-go-v2/service/s3"
	"github.com/aws/aws-sdk-go/service/s3"
	"github.com/aws/aws-sdk-go/service/s3/s3iface"
	"github.com/aws/aws-sdk-go/service/s3/s3manager"

	"github.com/aliyun/aliyun-oss-go-sdk/oss"
	"github.com/huaweicloud/huaweicloud-sdk-go-obs/obs"
	"github.com/minio/minio-go/v7"
	"github.com/qiniu/go-sdk/v7/storage"
	cos "github.com/tencentyun/cos-go-sdk-v5"
)

type app struct {
	r6     *redis6.Client
	r7     *redis7.Client
	files  *gridfs.Bucket
	coll   *mongo.Collection
	svc    *s3.S3
	api    s3iface.S3API
	up     *s3manager.Uploader
	up2    *manager.Uploader
	cos    *cos.Client
	qiniu  *storage.BucketManager
	bucket *oss.Bucket
	obs    *obs.ObsClient
}

var global = redis7.NewClient(&redis7.Options{})

func (a *app) Redis(w http.ResponseWriter, r *http.Request) {
	ctx := r.Context()
	a.r6.Get("k")                  // want `^github.com/go-redis/redis.\(\*cmdable\).Get does a Redis round trip the request cannot cancel: go-redis v6 stores WithContext's context but never uses it; use go-redis v8\+.*\(SIO001\)$`
	a.r6.WithContext(ctx).Get("k") // want `redis.\(\*cmdable\).Get does a Redis round trip the request cannot cancel`
	a.r6.Do("GET", "k")            // want `github.com/go-redis/redis.\(\*baseClient\).Do does a Redis round trip`
	a.r7.Get("k")                  // want `^github.com/go-redis/redis/v7.cmdable.Get blocks without the request context; use rdb.WithContext\(ctx\).Get\(...\) \(SIO001\)$`
	global.Get("k")                // want `redis/v7.cmdable.Get blocks without the request context`
	a.r7.WithContext(ctx).Get("k")
	a.r7.Do("GET", "k") // want `redis/v7.\(\*Client\).Do blocks without the request context; use rdb.DoContext\(ctx, args...\)`
	a.r7.DoContext(ctx, "GET", "k")
	c := a.r7.WithContext(ctx)
	c.Get("k") // a local may carry a context: not reported
}

func (a *app) Mongo(w http.ResponseWriter, r *http.Request) {
	ctx := r.Context()
	_ = a.files.Delete(1) // want `^go.mongodb.org/mongo-driver/mongo/gridfs.\(\*Bucket\).Delete blocks without the request context; use bucket.DeleteContext\(ctx, ...\) \(SIO001\)$`
	_ = a.files.DeleteContext(ctx, 1)
	_, _ = a.files.UploadFromStream("f", strings.NewReader("x")) // want `gridfs.\(\*Bucket\).UploadFromStream does GridFS I/O the request cannot cancel: mongo-driver v1 has no context variant`
	_ = a.coll.DeleteOne(ctx, nil)
}

func (a *app) AWS(w http.ResponseWriter, r *http.Request) {
	ctx := r.Context()
	_, _ = a.svc.PutObject(&s3.PutObjectInput{}) // want `^github.com/aws/aws-sdk-go/service/s3.\(\*S3\).PutObject blocks without the request context; use svc.PutObjectWithContext\(ctx, ...\) \(SIO001\)$`
	_, _ = a.svc.PutObjectWithContext(ctx, &s3.PutObjectInput{})
	_, _ = a.api.PutObject(&s3.PutObjectInput{}) // want `s3/s3iface.S3API.PutObject blocks without the request context`
	_, _ = a.api.PutObjectWithContext(ctx, &s3.PutObjectInput{})
	_, _ = a.up.Upload(&s3manager.UploadInput{}) // want `s3/s3manager.Uploader.Upload blocks without the request context; use uploader.UploadWithContext\(ctx, input\)`
	_, _ = a.up.UploadWithContext(ctx, &s3manager.UploadInput{})
	_, _ = a.up2.Upload(ctx, &s3v2.PutObjectInput{}) // v2 takes ctx
}

func (a *app) ObjectStores(w http.ResponseWriter, r *http.Request) {
	ctx := r.Context()
	_, _ = a.cos.Object.Get(ctx, "k", nil) // COS takes ctx everywhere

	_, _ = a.qiniu.Stat("b", "k") // want `^github.com/qiniu/go-sdk/v7/storage.\(\*BucketManager\).Stat does a Qiniu request the request cannot cancel: the storage package runs it on context.Background\(\); use storagev2's apis.Storage.StatObject\(ctx, ...\).*\(SIO001\)$`
	_, _ = a.qiniu.Batch(nil)     // want `BucketManager\).Batch does a Qiniu request.*use m.BatchWithContext`
	_, _ = a.qiniu.BatchWithContext(ctx, "b", nil)
	_, _ = a.qiniu.Get("b", "k", nil)                                   // want `BucketManager\).Get does a Qiniu request`
	_, _ = a.qiniu.Get("b", "k", &storage.GetObjectInput{Range: "0-1"}) // want `BucketManager\).Get does a Qiniu request`
	_, _ = a.qiniu.Get("b", "k", &storage.GetObjectInput{Context: ctx})

	_ = a.bucket.PutObject("k", bytes.NewReader(nil))                       // want `^github.com/aliyun/aliyun-oss-go-sdk/oss.Bucket.PutObject sends an OSS request without the request context; use bucket.PutObject\(..., oss.WithContext\(ctx\)\) \(SIO001\)$`
	_ = a.bucket.PutObject("k", bytes.NewReader(nil), oss.ContentType("x")) // want `oss.Bucket.PutObject sends an OSS request`
	_ = a.bucket.PutObject("k", bytes.NewReader(nil), oss.ContentType("x"), oss.WithContext(ctx))
	opts := []oss.Option{oss.WithContext(ctx)}
	_ = a.bucket.PutObject("k", bytes.NewReader(nil), opts...)

	_, _ = a.obs.PutObject(&obs.PutObjectInput{})             // want `^github.com/huaweicloud/huaweicloud-sdk-go-obs/obs.ObsClient.PutObject sends an OBS request the request cannot cancel: ObsClient has no per-call context; use a deadline on the shared client.*\(SIO001\)$`
	_, _ = a.obs.CreateSignedUrl(&obs.CreateSignedUrlInput{}) // no request
}

func (a *app) Ctors(w http.ResponseWriter, r *http.Request) {
	ctx := r.Context()
	_ = redis6.NewClient(&redis6.Options{}) // want `^redis.NewClient builds a Redis connection pool on every request.*\(SIO004\)$`
	_ = redis7.NewClient(&redis7.Options{}) // want `redis.NewClient builds a Redis connection pool`
	_, _ = mongo.Connect(ctx)               // want `mongo.Connect builds MongoDB connection pools`
	cl, _ := mongo.NewClient()              // NewClient only configures
	_ = cl.Connect(ctx)                     // want `mongo.\(\*Client\).Connect builds MongoDB connection pools`
	_, _ = mongo2.Connect()                 // want `mongo.Connect builds MongoDB connection pools`
	_ = s3v2.NewFromConfig(aws.Config{})    // want `s3.NewFromConfig builds an AWS client and, unless Options.HTTPClient is set, its own HTTP transport`
	_ = s3v2.New(s3v2.Options{})            // want `s3.New builds an AWS client`
	_ = manager.NewUploader(nil)            // wraps a client: builds nothing
	_ = s3manager.NewUploader()             // builds nothing
	_ = cos.NewClient(nil, nil)             // keeps the given (or a zero) http.Client
	_ = storage.NewBucketManager()          // Qiniu's shared default client
	_, _ = oss.New("e", "a", "s")           // want `oss.New builds an OSS client and its HTTP transport`
	_, _ = obs.New("a", "s", "e")           // want `obs.New builds an OBS client and its HTTP transport`
	_, _ = minio.New("e", &minio.Options{}) // want `minio.New builds a MinIO client and its HTTP transport`
}
