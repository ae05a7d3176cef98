// want package:`pending\(3\)` package:`holds\(2\)`

// Package pooledclients builds pooled mail, cache and queue clients: once
// at start-up (silent) and on every request (SIO004).
package pooledclients

import (
	"net/http"

	"github.com/IBM/sarama"
	"github.com/bradfitz/gomemcache/memcache"
	ckafka "github.com/confluentinc/confluent-kafka-go/v2/kafka"
	"github.com/knadh/smtppool"
	"github.com/nats-io/nats.go"
	amqp "github.com/rabbitmq/amqp091-go"
	"github.com/redis/rueidis"
	"github.com/segmentio/kafka-go"
)

// Built once at start-up and shared: the right way, never reported.
var (
	mail, _     = smtppool.New(smtppool.Opt{Host: "smtp", Port: 25, MaxConns: 4})
	rds, _      = rueidis.NewClient(rueidis.ClientOption{InitAddress: []string{"redis:6379"}})
	mc          = memcache.New("mc:11211")
	nc, _       = nats.Connect("nats://nats:4222")
	amq, _      = amqp.Dial("amqp://mq")
	writer      = kafka.NewWriter(kafka.WriterConfig{Brokers: []string{"kafka:9092"}, Topic: "t"})
	producer, _ = sarama.NewSyncProducer([]string{"kafka:9092"}, sarama.NewConfig())
	cproducer   *ckafka.Producer
)

func Shared(w http.ResponseWriter, r *http.Request) {
	_ = mail.Send(smtppool.Email{To: []string{"a@b"}})
	_, _ = mc.Get("k")
	_ = nc.Publish("s", nil)
	_ = writer.WriteMessages(r.Context(), kafka.Message{})
	_, _, _ = producer.SendMessage(&sarama.ProducerMessage{Topic: "t"})
	_, _, _ = rds, amq, cproducer
	zero := &kafka.Writer{Topic: "t"} // a literal uses the shared transport: not reported
	_ = zero.WriteMessages(r.Context())
}

// Mail builds an SMTP pool per request and never closes it: the sweeper
// goroutine and the connections leak (the issue 21 case).
func Mail(w http.ResponseWriter, r *http.Request) {
	p, _ := smtppool.New(smtppool.Opt{Host: "smtp", Port: 25, MaxConns: 4}) // want `^smtppool.New builds an SMTP connection pool on every request: each one opens its own connections.*\(SIO004\)$`
	_ = p.Send(smtppool.Email{To: []string{"a@b"}})
}

func Cache(w http.ResponseWriter, r *http.Request) {
	c, _ := rueidis.NewClient(rueidis.ClientOption{InitAddress: []string{"redis:6379"}}) // want `^rueidis.NewClient builds a Redis client and its connections on every request`
	defer c.Close()
	m := memcache.New("mc:11211") // want `^memcache.New builds a memcached client and its idle-connection pool on every request`
	_, _ = m.Get("k")
}

func Queues(w http.ResponseWriter, r *http.Request) {
	conn, _ := nats.Connect("nats://nats:4222") // want `^nats.Connect builds a NATS connection and its read and flush goroutines on every request`
	defer conn.Close()
	a, _ := amqp.DialConfig("amqp://mq", amqp.Config{}) // want `^amqp091.DialConfig builds an AMQP connection and its reader and heartbeat goroutines on every request`
	defer a.Close()
	kw := kafka.NewWriter(kafka.WriterConfig{Topic: "t"}) // want `^kafka.NewWriter builds a Kafka writer and its own transport \(connection pools\) on every request`
	_ = kw.WriteMessages(r.Context())
	sp, _ := sarama.NewSyncProducer([]string{"kafka:9092"}, nil) // want `^sarama.NewSyncProducer builds a Kafka producer and its own client`
	defer sp.Close()
	cp, _ := ckafka.NewProducer(&ckafka.ConfigMap{}) // want `^kafka.NewProducer builds a librdkafka producer`
	defer cp.Close()
}
