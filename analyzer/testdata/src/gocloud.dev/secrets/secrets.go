// Package secrets is a minimal stand-in for gocloud.dev/secrets v0.46.0:
// a Keeper hands its work to a driver, local (nacl secretbox) or remote
// (a cloud KMS), behind an interface the analysis does not follow.
package secrets

import "context"

// Driver is gocloud's driver.Keeper.
type Driver interface {
	Encrypt(ctx context.Context, plaintext []byte) ([]byte, error)
	Decrypt(ctx context.Context, ciphertext []byte) ([]byte, error)
}

type Keeper struct{ k Driver }

func NewKeeper(k Driver) *Keeper { return &Keeper{k: k} }

func (k *Keeper) Encrypt(ctx context.Context, plaintext []byte) ([]byte, error) {
	return k.k.Encrypt(ctx, plaintext)
}

func (k *Keeper) Decrypt(ctx context.Context, ciphertext []byte) ([]byte, error) {
	return k.k.Decrypt(ctx, ciphertext)
}

func (k *Keeper) Close() error { return nil }
