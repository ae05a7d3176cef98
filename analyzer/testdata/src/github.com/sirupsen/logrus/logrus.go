// Package logrus is a stub of github.com/sirupsen/logrus: Fatal ends in a
// call through the logger's ExitFunc, which the analysis cannot follow, so
// only the exit rows say it ends the process.
package logrus

import "os"

type Logger struct{ ExitFunc func(int) }

type Entry struct{ Logger *Logger }

var std = &Logger{ExitFunc: os.Exit}

func (l *Logger) Exit(code int) { l.ExitFunc(code) }

func WithField(key string, value any) *Entry { return &Entry{Logger: std} }

func (e *Entry) Fatalf(format string, args ...any) { e.Logger.Exit(1) }
