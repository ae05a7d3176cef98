// Package aws is a minimal stand-in for aws-sdk-go-v2's aws package.
package aws

type Config struct{ Region string }
