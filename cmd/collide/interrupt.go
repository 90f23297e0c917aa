package main

import (
	"context"
	"errors"
	"os"
	"os/signal"
	"syscall"
)

// exitInterrupted is the exit status of a command stopped by an interrupt
// (Ctrl-C, SIGINT, or SIGTERM): 128 + SIGINT's number, as shells report a
// process an interrupt ended, so that a script can tell it from an error.
const exitInterrupted = 130

// context returns the context the command runs under: e.ctx (tests), or
// one never done.
func (e *env) context() context.Context {
	if e.ctx != nil {
		return e.ctx
	}
	return context.Background()
}

// interruptible returns a context that an interrupt (SIGINT, SIGTERM)
// cancels, and the function that stops catching them. Commands catch
// interrupts only around the work that looks at the context (world's
// steps, nc's check, --bv auto's choice): elsewhere an interrupt ends the
// process at once, as by default, having written no file (the commands
// that write one, build and gen, write it whole or not at all). Only the
// first interrupt is caught: a second one, while the work winds down,
// ends the process.
func interruptible(e *env) (context.Context, context.CancelFunc) {
	ctx, stop := signal.NotifyContext(e.context(), os.Interrupt, syscall.SIGTERM)
	go func() {
		<-ctx.Done()
		stop()
	}()
	return ctx, stop
}

// isInterrupt reports whether err says that the command's context was
// cancelled: an interrupt (or a test's cancelled context).
func isInterrupt(err error) bool { return errors.Is(err, context.Canceled) }
