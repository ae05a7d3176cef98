// Package limits checks, before a load run starts, that the process may
// open enough file descriptors and the machine has enough ephemeral ports
// for the planned number of users, and says what to raise when not.
package limits
