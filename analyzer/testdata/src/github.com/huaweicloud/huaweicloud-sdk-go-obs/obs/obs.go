// Package obs is a minimal stand-in for huaweicloud-sdk-go-obs v3.25:
// value-receiver ObsClient methods with no per-call context.
package obs

type ObsClient struct{}

type PutObjectInput struct{ Bucket, Key string }

type PutObjectOutput struct{}

type CreateSignedUrlInput struct{}

type CreateSignedUrlOutput struct{}

type configurer func()

func New(ak, sk, endpoint string, configurers ...configurer) (*ObsClient, error) {
	return &ObsClient{}, nil
}

func (c ObsClient) PutObject(input *PutObjectInput) (*PutObjectOutput, error) { return nil, nil }

func (c ObsClient) CreateSignedUrl(input *CreateSignedUrlInput) (*CreateSignedUrlOutput, error) {
	return nil, nil
}
