//go:build unix

package verify

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"os/signal"
	"path/filepath"
	"runtime"
	"sort"
	"strconv"
	"strings"
	"sync"
	"syscall"
	"time"
	"unsafe"
)

// Run runs the command under the wrapper and reports what happened. It returns an error only
// when verification itself failed (no wrapper, the command could not start, the log could not be
// read); a program that fails, crashes or times out gives a Report.
func Run(ctx context.Context, opts Options) (*Report, error) {
	if runtime.GOOS != "linux" {
		return nil, ErrNeedsLinux
	}
	if len(opts.Command) == 0 {
		return nil, errors.New("verify: no command to run")
	}
	shim, err := resolveShim(ctx, opts)
	if err != nil {
		return nil, err
	}
	// A reader that goes away (`verify ... | head -1`) must not kill verify with SIGPIPE before
	// it removes its log and reports: with SIGPIPE notified, writes fail with EPIPE instead. The
	// program's own disposition is untouched (exec resets caught signals).
	pipeSigs := make(chan os.Signal, 1)
	signal.Notify(pipeSigs, syscall.SIGPIPE)
	defer signal.Stop(pipeSigs)
	// The termination signals are caught before the log exists, so that one arriving at any
	// point ends the program and still lets Run remove the log.
	sigs := opts.Signals
	if sigs == nil {
		ch := make(chan os.Signal, 4)
		signal.Notify(ch, syscall.SIGINT, syscall.SIGTERM, syscall.SIGHUP, syscall.SIGQUIT)
		defer signal.Stop(ch)
		sigs = ch
	}
	logFile, err := os.CreateTemp("", "cudaforklint-events-*.jsonl")
	if err != nil {
		return nil, fmt.Errorf("verify: event log: %w", err)
	}
	logPath := logFile.Name()
	logFile.Close()
	defer os.Remove(logPath)
	if !filepath.IsAbs(logPath) {
		if logPath, err = filepath.Abs(logPath); err != nil {
			return nil, fmt.Errorf("verify: event log: %w", err)
		}
	}

	env := opts.Env
	if env == nil {
		env = os.Environ()
	}
	cmd := exec.Command(opts.Command[0], opts.Command[1:]...)
	cmd.Env = withWrapper(env, shim, logPath)
	cmd.Dir = opts.Dir
	cmd.Stdin = opts.Stdin
	cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
	tty := foregroundTTY(opts.Stdin)
	if tty >= 0 {
		cmd.SysProcAttr.Foreground, cmd.SysProcAttr.Ctty = true, tty
	}

	out := &outputLines{}
	var copies sync.WaitGroup
	var readEnds, writeEnds []*os.File
	route := func(w io.Writer, always bool) (io.Writer, error) {
		if w == nil {
			return nil, nil
		}
		if f, ok := w.(*os.File); ok && !always && isTerminal(f) {
			return f, nil
		}
		r, pw, err := os.Pipe()
		if err != nil {
			return nil, err
		}
		readEnds, writeEnds = append(readEnds, r), append(writeEnds, pw)
		copies.Add(1)
		go func() {
			defer copies.Done()
			io.Copy(&lineTee{dst: w, out: out}, r)
			r.Close() // the program now gets EPIPE, as it would writing to a closed descriptor
		}()
		return pw, nil
	}
	if cmd.Stdout, err = route(opts.Stdout, false); err == nil {
		cmd.Stderr, err = route(opts.Stderr, true)
	}
	closeWriteEnds := func() {
		for _, f := range writeEnds {
			f.Close()
		}
		writeEnds = nil
	}
	if err != nil {
		closeWriteEnds()
		return nil, fmt.Errorf("verify: %w", err)
	}

	grace := opts.Grace
	if grace <= 0 {
		grace = 3 * time.Second
	}

	start := time.Now()
	if err := cmd.Start(); err != nil {
		closeWriteEnds()
		return nil, fmt.Errorf("verify: %w", err)
	}
	closeWriteEnds()
	pgid := cmd.Process.Pid
	rep := &Report{Command: opts.Command, Shim: shim, RootPID: pgid}

	waited := make(chan error, 1)
	go func() { waited <- cmd.Wait() }()
	alive := map[int]procNow{}
	var aliveWhy string
	var aliveAt int64
	endGroup := func(why string) {
		if aliveWhy == "" {
			aliveWhy, aliveAt = why, time.Now().UnixNano()
			for pid, st := range groupMembers(pgid) {
				alive[pid] = st
			}
		}
		syscall.Kill(-pgid, syscall.SIGKILL)
	}
	var timeout <-chan time.Time
	if opts.Timeout > 0 {
		t := time.NewTimer(opts.Timeout)
		defer t.Stop()
		timeout = t.C
	}
	var graceUp <-chan time.Time
	var forwardedAt int64 // when a signal was first forwarded to the group
wait:
	for {
		select {
		case <-waited:
			break wait
		case <-timeout:
			rep.TimedOut = true
			endGroup("timeout")
		case <-ctx.Done():
			rep.Interrupted = true
			endGroup("interrupt")
		case s := <-sigs:
			rep.Interrupted = true
			if graceUp != nil {
				endGroup("interrupt")
				continue
			}
			if ss, ok := s.(syscall.Signal); ok {
				syscall.Kill(-pgid, ss)
			}
			if forwardedAt == 0 {
				forwardedAt = time.Now().UnixNano()
			}
			graceUp = time.After(grace)
		case <-graceUp:
			endGroup("interrupt")
		}
	}
	rep.Duration = time.Since(start)
	if tty >= 0 {
		reclaimTTY(tty)
	}
	// What the root left behind: give it a moment to finish on its own (a forkserver or a
	// resource tracker exits when its parent does), then end it, so nothing outlives the run.
	why := "left running"
	if rep.Interrupted {
		why = "interrupt"
	}
	for deadline := time.Now().Add(time.Second); len(groupMembers(pgid)) > 0; {
		if time.Now().After(deadline) {
			endGroup(why)
			break
		}
		time.Sleep(20 * time.Millisecond)
	}
	// Processes that left the group (setsid, a daemon's double fork) are found through the
	// wrapper's records and ended too, so nothing the program started outlives the run.
	if rep.TimedOut {
		why = "timeout"
	}
	escaped, escapedAt := endEscaped(logPath, pgid)
	// The copies end when every holder of the pipes is gone; a process that escaped the group
	// and the records (a static program that called setsid) may hold them longer.
	copied := make(chan struct{})
	go func() { copies.Wait(); close(copied) }()
	select {
	case <-copied:
	case <-time.After(2 * time.Second):
		for _, r := range readEnds {
			r.Close()
		}
	}

	st := cmd.ProcessState
	data, err := os.ReadFile(logPath)
	if err != nil {
		return nil, fmt.Errorf("verify: reading the event log: %w", err)
	}
	events, bad, err := ParseEvents(bytes.NewReader(data))
	if err != nil {
		return nil, fmt.Errorf("verify: reading the event log: %w", err)
	}
	tree := BuildTree(events, pgid)
	if len(alive) > 0 {
		tree.markRunning(alive, aliveWhy, aliveAt)
	}
	if forwardedAt > 0 && (tree.EndedAt == 0 || forwardedAt < tree.EndedAt) {
		tree.EndedAt = forwardedAt // what the forwarded signal ended, the run ended
	}
	if len(escaped) > 0 {
		tree.markRunning(escaped, why, escapedAt)
		for pid := range escaped {
			rep.Escaped = append(rep.Escaped, pid)
		}
		sort.Ints(rep.Escaped)
	}
	// The root's own status, as Go waited for it, outranks its exit record: a destructor that
	// crashed after the wrapper's exit handler ran changed how it ended.
	// A record may reach the log after that search: a daemon's fork record is written by the
	// daemon itself once it is scheduled, which on a loaded machine can be after its parent and
	// the root have exited. A process of the tree whose end is unknown and that still runs
	// outside the group is ended now, as one the search found would have been.
	if late, at := endLate(tree, pgid); len(late) > 0 {
		tree.markRunning(late, why, at)
		for pid := range late {
			rep.Escaped = append(rep.Escaped, pid)
		}
		sort.Ints(rep.Escaped)
	}
	if tree.Root != nil && (tree.Root.End.Kind == EndUnknown || tree.Root.End.Source == "_exit") && st != nil {
		tree.Root.End = endFromStatus(int(st.Sys().(syscall.WaitStatus)), time.Now().UnixNano())
		tree.Root.End.Source = "run"
	}
	if st != nil {
		ws := st.Sys().(syscall.WaitStatus)
		rep.ExitStatus, rep.Signal = ws.ExitStatus(), ""
		if ws.Signaled() {
			rep.ExitStatus, rep.Signal = 128+int(ws.Signal()), signalName(ws.Signal())
		}
	}
	rep.Tree, rep.Events, rep.BadEvents = tree, len(events), bad
	rep.OutputErrors = out.snapshot()
	var preload []string
	rep.OutputExceptions, preload, rep.bootstrap = out.others()
	rep.BlindSpots = blindSpots(tree, preload, rep.Interrupted || rep.TimedOut)
	rep.FailedChildren = failedChildren(tree)
	rep.Unfinished = unfinished(tree, rep.Escaped)
	rep.CUDAUnobserved = cudaUnobserved(tree)
	cwd := opts.Dir
	if cwd == "" {
		cwd, _ = os.Getwd()
	}
	base, _ := os.Getwd()
	rep.runtime = classify(tree, rep.OutputErrors, base)
	rep.finish(opts.Static, scriptPaths(opts.Command, tree, cwd, base), base)
	return rep, nil
}

func isTerminal(f *os.File) bool {
	var pgrp int32
	_, _, e := syscall.Syscall(syscall.SYS_IOCTL, f.Fd(), syscall.TIOCGPGRP, uintptr(unsafe.Pointer(&pgrp)))
	return e == 0
}

// foregroundTTY returns the descriptor of stdin when it is the terminal whose foreground process
// group is ours: the program's group then takes the terminal (so it can read it, and Ctrl-C
// reaches it directly), and Run takes the terminal back afterwards. -1 otherwise.
func foregroundTTY(stdin io.Reader) int {
	f, ok := stdin.(*os.File)
	if !ok {
		return -1
	}
	var pgrp int32
	if _, _, e := syscall.Syscall(syscall.SYS_IOCTL, f.Fd(), syscall.TIOCGPGRP, uintptr(unsafe.Pointer(&pgrp))); e != 0 {
		return -1
	}
	if int(pgrp) != syscall.Getpgrp() {
		return -1
	}
	return int(f.Fd())
}

func reclaimTTY(fd int) {
	signal.Ignore(syscall.SIGTTOU) // a background group may not set the foreground group otherwise
	defer signal.Reset(syscall.SIGTTOU)
	pgrp := int32(syscall.Getpgrp())
	syscall.Syscall(syscall.SYS_IOCTL, uintptr(fd), syscall.TIOCSPGRP, uintptr(unsafe.Pointer(&pgrp)))
}

// groupMembers lists the live (not zombie) processes of a process group, with their state
// letters and wait channels, from /proc.
func groupMembers(pgid int) map[int]procNow {
	out := map[int]procNow{}
	ents, err := os.ReadDir("/proc")
	if err != nil {
		return out
	}
	for _, e := range ents {
		pid, err := strconv.Atoi(e.Name())
		if err != nil {
			continue
		}
		b, err := os.ReadFile("/proc/" + e.Name() + "/stat")
		if err != nil {
			continue
		}
		s := string(b)
		i := strings.LastIndexByte(s, ')')
		if i < 0 {
			continue
		}
		f := strings.Fields(s[i+1:])
		if len(f) < 3 || f[0] == "Z" || f[0] == "X" {
			continue
		}
		if g, _ := strconv.Atoi(f[2]); g == pgid {
			out[pid] = procNow{State: f[0], Wchan: wchan(pid)}
		}
	}
	return out
}

// wchan is the kernel function a process waits in (/proc/PID/wchan), what it was doing when the
// run ended it; "" when it was running or the kernel does not say ("0").
func wchan(pid int) string {
	b, err := os.ReadFile("/proc/" + strconv.Itoa(pid) + "/wchan")
	if w := strings.TrimSpace(string(b)); err == nil && w != "0" {
		return w
	}
	return ""
}

// procStat reads the state letter, process group and start time (clock ticks since boot) of a
// process from /proc/PID/stat.
func procStat(pid int) (state string, pgrp int, start int64, ok bool) {
	b, err := os.ReadFile("/proc/" + strconv.Itoa(pid) + "/stat")
	if err != nil {
		return "", 0, 0, false
	}
	s := string(b)
	i := strings.LastIndexByte(s, ')')
	if i < 0 {
		return "", 0, 0, false
	}
	f := strings.Fields(s[i+1:]) // f[0] is field 3 (state), f[2] field 5 (pgrp), f[19] field 22
	if len(f) < 20 {
		return "", 0, 0, false
	}
	pgrp, _ = strconv.Atoi(f[2])
	start, _ = strconv.ParseInt(f[19], 10, 64)
	return f[0], pgrp, start, true
}

// liveRecorded finds the processes of the log at logPath that are still running outside the
// process group pgid: a record gave their start time, and a live process with that pid has the
// same one (so a pid reused by an unrelated process is left alone). It maps pids to what /proc
// showed of them.
func liveRecorded(logPath string, pgid int) map[int]procNow {
	out := map[int]procNow{}
	f, err := os.Open(logPath)
	if err != nil {
		return out
	}
	events, _, _ := ParseEvents(f)
	f.Close()
	starts := map[int]int64{}
	for _, e := range events {
		if e.St > 0 && (e.Ev == "start" || e.Ev == "fork" || e.Ev == "exec") {
			starts[e.PID] = e.St
		}
	}
	for pid, st := range starts {
		state, pgrp, start, ok := procStat(pid)
		if ok && start == st && pgrp != pgid && state != "Z" && state != "X" {
			out[pid] = procNow{State: state, Wchan: wchan(pid)}
		}
	}
	return out
}

// endLate kills the processes of the tree whose end is unknown and that still run outside the
// process group pgid (the same pid and start time), and returns them as endEscaped does.
func endLate(t *Tree, pgid int) (map[int]procNow, int64) {
	late := map[int]procNow{}
	var at int64
	for _, p := range t.All {
		if p == t.Root || p.End.Kind != EndUnknown || p.Start == 0 {
			continue
		}
		state, pgrp, start, ok := procStat(p.PID)
		if !ok || start != p.Start || pgrp == pgid || state == "Z" || state == "X" {
			continue
		}
		if at == 0 {
			at = time.Now().UnixNano()
		}
		late[p.PID] = procNow{State: state, Wchan: wchan(p.PID)}
		syscall.Kill(p.PID, syscall.SIGKILL)
	}
	return late, at
}

// endEscaped kills the processes of the log that left the process group pgid and still run (a
// few rounds: one may have started another meanwhile). It returns them, with /proc's state letter
// when found, and when it began (0 when there were none).
func endEscaped(logPath string, pgid int) (map[int]procNow, int64) {
	escaped := map[int]procNow{}
	var at int64
	for round := 0; round < 3; round++ {
		found := liveRecorded(logPath, pgid)
		for pid := range escaped {
			delete(found, pid)
		}
		if len(found) == 0 {
			break
		}
		if at == 0 {
			at = time.Now().UnixNano()
		}
		for pid, st := range found {
			escaped[pid] = st
			syscall.Kill(pid, syscall.SIGKILL)
		}
		time.Sleep(20 * time.Millisecond)
	}
	return escaped, at
}
