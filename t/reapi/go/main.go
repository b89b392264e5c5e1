// A Go client of libreapi_cli written the way Go clients of Fluxion are
// (fluxion-go's reapi_cli.go and the Kubernetes scheduler plugins built on
// it): the header by its short name, compiler and linker flags only from
// CGO_CFLAGS / CGO_LDFLAGS, the context as *C.struct_reapi_cli_ctx, match
// ops as raw integers, a C.CString placeholder for R that the client frees
// itself, and C.free of every result.
//
//	reapi_go_client DATA_DIR JOBSPEC_DIR
//
// It loads a JGF, allocates, allocates-or-reserves, asks satisfiability,
// reads info, partially cancels and cancels, checking every result.
package main

/*
#include "reapi_cli.h"
*/
import "C"

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"unsafe"
)

// MatchType is match_op_t as fluxion-go passes it: a plain integer.
type MatchType int

const (
	MatchAllocate                   MatchType = 1
	MatchAllocateWithSatisfiability MatchType = 2
	MatchAllocateOrElseReserve      MatchType = 3
	MatchSatisfiability             MatchType = 4
	MatchWithoutAllocating          MatchType = 5
)

type ReapiClient struct {
	ctx *C.struct_reapi_cli_ctx
}

func NewReapiClient() *ReapiClient {
	return &ReapiClient{ctx: C.reapi_cli_new()}
}

func (cli *ReapiClient) Destroy() { C.reapi_cli_destroy(cli.ctx) }

func (cli *ReapiClient) InitContext(jgf string, options string) error {
	g := C.CString(jgf)
	o := C.CString(options)
	defer C.free(unsafe.Pointer(g))
	defer C.free(unsafe.Pointer(o))
	if rc, errno := C.reapi_cli_initialize(cli.ctx, g, o); rc != 0 {
		return fmt.Errorf("initialize: %v: %s", errno, cli.GetErrMsg())
	}
	return nil
}

func (cli *ReapiClient) GetErrMsg() string {
	msg := C.reapi_cli_get_err_msg(cli.ctx)
	defer C.free(unsafe.Pointer(msg))
	return C.GoString(msg)
}

func (cli *ReapiClient) ClearErrMsg() { C.reapi_cli_clear_err_msg(cli.ctx) }

// Match as fluxion-go does it, errno returned beside the error.
func (cli *ReapiClient) Match(op MatchType, jobspec string) (reserved bool, allocated string,
	at int64, overhead float64, jobid uint64, errno error) {
	var r = C.CString("")
	spec := C.CString(jobspec)
	defer C.free(unsafe.Pointer(spec))
	rc, e := C.reapi_cli_match(cli.ctx, C.match_op_t(op), spec,
		(*C.ulong)(&jobid), (*C.bool)(&reserved), &r,
		(*C.long)(&at), (*C.double)(&overhead))
	allocated = C.GoString(r)
	C.free(unsafe.Pointer(r)) // the result, or our own placeholder on failure
	if rc != 0 {
		return false, "", 0, 0, 0, e
	}
	return
}

func (cli *ReapiClient) MatchAllocate(orelseReserve bool, jobspec string) (reserved bool,
	allocated string, at int64, overhead float64, jobid uint64, errno error) {
	var r = C.CString("")
	spec := C.CString(jobspec)
	defer C.free(unsafe.Pointer(spec))
	rc, e := C.reapi_cli_match_allocate(cli.ctx, (C.bool)(orelseReserve), spec,
		(*C.ulong)(&jobid), (*C.bool)(&reserved), &r,
		(*C.long)(&at), (*C.double)(&overhead))
	allocated = C.GoString(r)
	C.free(unsafe.Pointer(r))
	if rc != 0 {
		return false, "", 0, 0, 0, e
	}
	return
}

func (cli *ReapiClient) MatchSatisfy(jobspec string) (sat bool, overhead float64, errno error) {
	spec := C.CString(jobspec)
	defer C.free(unsafe.Pointer(spec))
	rc, e := C.reapi_cli_match_satisfy(cli.ctx, spec, (*C.bool)(&sat), (*C.double)(&overhead))
	if rc != 0 {
		return sat, overhead, e
	}
	return sat, overhead, nil
}

func (cli *ReapiClient) Info(jobid uint64) (mode string, reserved bool, at int64,
	overhead float64, errno error) {
	var m *C.char
	rc, e := C.reapi_cli_info(cli.ctx, (C.ulong)(jobid), &m, (*C.bool)(&reserved),
		(*C.long)(&at), (*C.double)(&overhead))
	if rc != 0 {
		return "", false, 0, 0, e
	}
	mode = C.GoString(m)
	C.free(unsafe.Pointer(m))
	return
}

func (cli *ReapiClient) PartialCancel(jobid uint64, r string, noentOk bool) (full bool, errno error) {
	rs := C.CString(r)
	defer C.free(unsafe.Pointer(rs))
	rc, e := C.reapi_cli_partial_cancel(cli.ctx, (C.ulong)(jobid), rs, (C.bool)(noentOk),
		(*C.bool)(&full))
	if rc != 0 {
		return false, e
	}
	return full, nil
}

func (cli *ReapiClient) Cancel(jobid uint64, noentOk bool) error {
	if rc, e := C.reapi_cli_cancel(cli.ctx, (C.ulong)(jobid), (C.bool)(noentOk)); rc != 0 {
		return e
	}
	return nil
}

// ---- checks -------------------------------------------------------------

var failures int

func check(ok bool, format string, args ...interface{}) {
	if !ok {
		failures++
		fmt.Fprintf(os.Stderr, "FAIL: "+format+"\n", args...)
	}
}

type jgfDoc struct {
	Graph struct {
		Nodes []struct {
			ID       string `json:"id"`
			Metadata struct {
				Type  string            `json:"type"`
				Rank  int               `json:"rank"`
				Paths map[string]string `json:"paths"`
			} `json:"metadata"`
		} `json:"nodes"`
	} `json:"graph"`
}

// The node ranks of a JGF R, and whether every vertex comes after all of
// its descendants (post-order: cores, then their socket, then their node).
func readR(r string) (ranks []int, postOrder bool, err error) {
	var doc jgfDoc
	if err = json.Unmarshal([]byte(r), &doc); err != nil {
		return nil, false, err
	}
	postOrder = true
	seen := map[string]bool{}
	for _, n := range doc.Graph.Nodes {
		p := n.Metadata.Paths["containment"]
		for q := range seen {
			if strings.HasPrefix(p, q+"/") {
				postOrder = false // an ancestor came first
			}
		}
		seen[p] = true
		if n.Metadata.Type == "node" {
			ranks = append(ranks, n.Metadata.Rank)
		}
	}
	return ranks, postOrder, nil
}

func rankR(rank int) string {
	return fmt.Sprintf(`{"version": 1, "execution": {"R_lite": [{"rank": "%d", `+
		`"children": {"core": "0-3"}}], "nodelist": ["node%d"], `+
		`"starttime": 0, "expiration": 3600}}`, rank, rank)
}

func mustRead(path string) string {
	b, err := os.ReadFile(path)
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(2)
	}
	return string(b)
}

func main() {
	if len(os.Args) < 3 {
		fmt.Fprintln(os.Stderr, "usage: reapi_go_client DATA_DIR JOBSPEC_DIR")
		os.Exit(2)
	}
	jgf := mustRead(filepath.Join(os.Args[1], "four-nodes.json"))
	two := mustRead(filepath.Join(os.Args[1], "two-nodes.yaml"))
	big := mustRead(filepath.Join(os.Args[2], "too-big.yaml"))
	core := mustRead(filepath.Join(os.Args[2], "core.yaml"))

	cli := NewReapiClient()
	defer cli.Destroy()
	if err := cli.InitContext(jgf, `{"load_format": "jgf", "matcher_policy": "lonode"}`); err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}

	// allocate
	reserved, r, at, ov, jobid, err := cli.MatchAllocate(false, two)
	check(err == nil && jobid == 1 && !reserved && at == 0 && ov >= 0,
		"allocate: err %v jobid %d reserved %v at %d", err, jobid, reserved, at)
	ranks, post, perr := readR(r)
	check(perr == nil && len(ranks) == 2, "allocate R: %v ranks %v in %q", perr, ranks, r)
	check(post, "R vertices in post-order (cores before socket before node)")

	// allocate-or-reserve, with the raw integer op
	reserved, _, at, _, jobid, err = cli.Match(MatchAllocateOrElseReserve, two)
	check(err == nil && jobid == 2 && !reserved && at == 0, "orelse_reserve now: %v %d %v %d",
		err, jobid, reserved, at)
	reserved, r3, at, _, jobid, err := cli.Match(3, two)
	check(err == nil && jobid == 3 && reserved && at == 3600 && r3 != "",
		"orelse_reserve later: %v %d %v %d", err, jobid, reserved, at)

	// not now: EBUSY; the id is consumed
	_, r, _, _, _, err = cli.Match(MatchAllocate, core)
	check(err == syscall.EBUSY && r == "", "allocate on a full machine: %v", err)
	cli.ClearErrMsg()

	// satisfiability
	sat, _, err := cli.MatchSatisfy(two)
	check(err == nil && sat, "two nodes are satisfiable: %v %v", sat, err)
	sat, _, err = cli.MatchSatisfy(big)
	check(err == syscall.ENODEV && !sat, "1000 nodes are not: %v %v", sat, err)
	_, _, _, _, _, err = cli.Match(MatchSatisfiability, big)
	check(err == syscall.ENODEV, "MATCH_SATISFIABILITY: %v", err)
	_, _, _, _, jobid, err = cli.Match(MatchWithoutAllocating, core)
	check(err == syscall.EBUSY, "without_allocating on a full machine: %v %d", err, jobid)

	// info
	mode, reserved, at, _, err := cli.Info(3)
	check(err == nil && mode == "RESERVED" && reserved && at == 3600, "info 3: %q %v %d %v",
		mode, reserved, at, err)
	mode, _, _, _, err = cli.Info(1)
	check(err == nil && mode == "ALLOCATED", "info 1: %q %v", mode, err)
	_, _, _, _, err = cli.Info(4242)
	check(err == syscall.ENOENT, "info of an unknown job: %v", err)

	// partial cancel, then cancel
	if len(ranks) == 2 {
		full, err := cli.PartialCancel(1, rankR(ranks[1]), false)
		check(err == nil && !full, "partial cancel of rank %d: %v %v", ranks[1], full, err)
		_, err = cli.PartialCancel(3, rankR(ranks[1]), false)
		check(err == syscall.ENOENT, "partial cancel of a reservation: %v", err)
		// the released node is free again: one node fits now
		_, _, at, _, jobid, err = cli.Match(MatchAllocate, core)
		check(err == nil && at == 0 && jobid == 5, "a core on the released node: %v %d", err, jobid)
		check(cli.Cancel(5, false) == nil, "cancel 5")
	}
	check(cli.Cancel(1, false) == nil, "cancel 1")
	mode, _, _, _, err = cli.Info(1)
	check(err == nil && mode == "CANCELED", "info after cancel: %q %v", mode, err)
	err = cli.Cancel(99999, false)
	check(err == syscall.ENOENT, "cancel of an unknown job: %v", err)
	check(strings.Contains(cli.GetErrMsg(), "nonexistent job 99999"), "cancel message")
	check(cli.Cancel(99999, true) == nil, "noent_ok")
	check(cli.Cancel(2, false) == nil && cli.Cancel(3, false) == nil, "cancel 2 and 3")
	reserved, _, at, _, jobid, err = cli.MatchAllocate(false, two)
	check(err == nil && !reserved && at == 0 && jobid == 6, "the machine is free again: %v %d",
		err, jobid)

	if failures > 0 {
		fmt.Fprintf(os.Stderr, "%d failure(s)\n", failures)
		os.Exit(1)
	}
	fmt.Println("reapi_go_client: ok")
}
