// Package repo reads tokens from whatever kv.Cache it is given.
package repo

import (
	"context"

	"example.com/kv"

	"cacheonly/svc"
)

type Repo struct{ Cache kv.Cache }

func (r *Repo) Token(ctx context.Context, tok string) (*svc.Info, error) {
	v, ok, err := r.Cache.GetString(ctx, "token:"+tok)
	if err != nil || !ok {
		return nil, err
	}
	return &svc.Info{UserID: v}, nil
}
