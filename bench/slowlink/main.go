// Command slowlink is a TCP relay whose uploads go at a set rate: the link
// between a person's laptop and the provider, for bench/quote.sh to send
// the same list through with `skipdesk-cli traces submit` and with
// `curl -F`.
//
//	slowlink HOST:PORT MBIT
//
// What the client sends is paced at MBIT megabits a second; what the
// server (HOST:PORT) answers is relayed as it comes. It prints
// "listening on http://ADDR" once it takes connections.
package main

import (
	"errors"
	"fmt"
	"io"
	"net"
	"os"
	"strconv"
	"time"
)

func main() {
	var mbit float64
	if len(os.Args) == 3 {
		mbit, _ = strconv.ParseFloat(os.Args[2], 64)
	}
	if mbit <= 0 {
		fail(2, "usage: slowlink HOST:PORT MBIT")
	}
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		fail(1, err)
	}
	fmt.Printf("listening on http://%s\n", ln.Addr())
	for {
		c, err := ln.Accept()
		if err != nil {
			fail(1, err)
		}
		go relay(c, os.Args[1], mbit*1e6/8)
	}
}

// fail says why on standard error and ends with code.
func fail(code int, why any) {
	fmt.Fprintln(os.Stderr, "slowlink:", why)
	os.Exit(code)
}

// relay joins a client's connection to a new one to the server.
func relay(c net.Conn, to string, rate float64) {
	defer c.Close()
	s, err := net.Dial("tcp", to)
	if err != nil {
		fmt.Fprintln(os.Stderr, "slowlink:", err)
		return
	}
	defer s.Close()
	done := make(chan struct{})
	go func() {
		io.Copy(c, s) //nolint:errcheck // the answer ends with either side
		c.Close()
		close(done)
	}()
	if err := paced(s, c, rate); err != nil && !errors.Is(err, net.ErrClosed) {
		fmt.Fprintln(os.Stderr, "slowlink:", err)
	}
	if tc, ok := s.(*net.TCPConn); ok {
		tc.CloseWrite() //nolint:errcheck // the server may have gone
	}
	<-done
}

// paced copies src to dst no faster than rate bytes a second, in pieces
// of 16 KiB, each sent once the bytes before it have had their time. A
// link idle for longer than idle saves up nothing; within it the time a
// piece took to read and write is made up, so the rate holds.
func paced(dst io.Writer, src io.Reader, rate float64) error {
	const idle = 20 * time.Millisecond
	buf := make([]byte, 16<<10)
	next := time.Now()
	for {
		n, err := src.Read(buf)
		if n > 0 {
			if now := time.Now(); now.Sub(next) > idle {
				next = now // the link was idle: no credit beyond idle's
			}
			next = next.Add(time.Duration(float64(n) / rate * float64(time.Second)))
			time.Sleep(time.Until(next))
			if _, werr := dst.Write(buf[:n]); werr != nil {
				return werr
			}
		}
		if errors.Is(err, io.EOF) {
			return nil
		}
		if err != nil {
			return err
		}
	}
}
