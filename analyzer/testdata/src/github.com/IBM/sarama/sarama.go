// Package sarama is a minimal stand-in for github.com/IBM/sarama: its
// clients and producers connect to the brokers.
package sarama

type Config struct{}

func NewConfig() *Config { return &Config{} }

type ProducerMessage struct{ Topic string }

type Client interface{ Close() error }

type SyncProducer interface {
	SendMessage(msg *ProducerMessage) (partition int32, offset int64, err error)
	Close() error
}

type AsyncProducer interface{ Close() error }

func NewClient(addrs []string, conf *Config) (Client, error)               { return nil, nil }
func NewSyncProducer(addrs []string, config *Config) (SyncProducer, error) { return nil, nil }
func NewAsyncProducer(addrs []string, conf *Config) (AsyncProducer, error) { return nil, nil }
