// inspect_pki.go: a node's /var/lib/kubelet/pki, at a paused run's prompt and in serve's terminal:
// what the articles check for a NotReady node whose kubelet's log says "certificate has expired"
// (article 1, 5.3: "或者查/var/lib/kubelet/pki下证书的有效期"; 7.4: "最后看/var/lib/kubelet/pki/下的证书有效期").
//
//	ls [-l] [-a] [-h] PATH [--node NODE]      the directory as GNU ls lists it (one name a line without -l)
//	cat FILE [--node NODE]                    a file: the PEM
//	openssl x509 -in FILE [-noout] [-dates] [-startdate] [-enddate] [-subject] [-issuer] [-serial]
//	        [-fingerprint [-sha1|-sha256]] [-checkend SECONDS] [--node NODE]   a certificate, as OpenSSL 3 prints it
//
// The directory holds what a kubeadm node's does (pki.go makes the certificates, real ones, when a
// command first reads them): kubelet-client-<issued>.pem for each client certificate the cluster
// issued the kubelet, kubelet-client-current.pem (a symlink to the newest), and kubelet.crt and
// kubelet.key (the kubelet's self-signed serving certificate). openssl's clock is the node's: the
// cluster's, off by SkewClock's skew, so a skewed node's -checkend disagrees with the control plane,
// as it would. Nothing else of the node's disk is there: another path is missing (with a word that
// only this directory is kept), and -text is left out.
package sim

import (
	"crypto/sha1"
	"crypto/sha256"
	"crypto/x509"
	"crypto/x509/pkix"
	"encoding/pem"
	"errors"
	"fmt"
	"hash"
	"io"
	"math"
	"path"
	"slices"
	"strconv"
	"strings"
	"time"
)

// onlyPKI follows a "no such file" about a path outside the one directory a node here has.
const onlyPKI = "(on kubesim's nodes, only " + kubeletPKIDir + " is there to look at)"

// pkiAncestors are the directories above kubeletPKIDir: they exist on a node, but kubesim lists none.
var pkiAncestors = []string{"/", "/var", "/var/lib", "/var/lib/kubelet"}

// nodeFiles is a node's /var/lib/kubelet/pki, and the node's clock now.
func (c *Cluster) nodeFiles(tool, node string) (files []nodeFile, now time.Time, err error) {
	nd, err := c.nodeFor(tool, node)
	if err != nil {
		return nil, time.Time{}, err
	}
	c.credMu.Lock()
	defer c.credMu.Unlock()
	files, err = c.kubeletFilesLocked(nodeUser(nd.Name))
	return files, c.nodeNowLocked(nd.Name), err
}

// lookup finds what a path names: the directory (dir), one of its files, or nothing (ok false).
// follow reads through the symlink, as cat and openssl do.
func lookup(files []nodeFile, p string, follow bool) (f nodeFile, dir, ok bool) {
	if !path.IsAbs(p) {
		return nodeFile{}, false, false // relative to root's home, which holds nothing here
	}
	p = path.Clean(p)
	if p == kubeletPKIDir || slices.Contains(pkiAncestors, p) {
		return nodeFile{}, true, true
	}
	if path.Dir(p) != kubeletPKIDir {
		return nodeFile{}, false, false
	}
	for _, f := range files {
		if f.name == path.Base(p) {
			if follow && f.target != "" {
				return lookup(files, f.target, true)
			}
			return f, false, true
		}
	}
	return nodeFile{}, false, false
}

// missing is a tool's "No such file or directory", with a word on what is kept when the path is not
// in the one directory there is.
func missing(msg, p string) error {
	if path.Dir(path.Clean(p)) != kubeletPKIDir {
		msg += "\n" + onlyPKI
	}
	return errors.New(msg)
}

// inspectLs runs `ls ARGS` on a node.
func (c *Cluster) inspectLs(w io.Writer, args []string) error {
	node, args := takeNodeFlag(args)
	var long, all, human bool
	var paths []string
	for _, a := range args {
		switch {
		case a == "--all":
			all = true
		case a == "--human-readable":
			human = true
		case strings.HasPrefix(a, "--"):
			return fmt.Errorf("ls: unrecognized option '%s'\nTry 'ls --help' for more information.", a)
		case strings.HasPrefix(a, "-") && len(a) > 1:
			for _, l := range a[1:] {
				switch l {
				case 'l':
					long = true
				case 'a':
					all = true
				case 'h':
					human = true
				default:
					return fmt.Errorf("ls: invalid option -- '%c'\nTry 'ls --help' for more information.", l)
				}
			}
		default:
			paths = append(paths, a)
		}
	}
	if len(paths) != 1 {
		return fmt.Errorf("ls: kubesim's nodes list one directory: ls [-l] [-a] [-h] %s --node NODE", kubeletPKIDir)
	}
	files, now, err := c.nodeFiles("ls", node)
	if err != nil {
		return err
	}
	p := paths[0]
	f, dir, ok := lookup(files, p, false)
	switch {
	case !ok:
		return missing(fmt.Sprintf("ls: cannot access '%s': No such file or directory", p), p)
	case dir && path.Clean(p) != kubeletPKIDir:
		return fmt.Errorf("ls: %s is there on a node, but kubesim's nodes show only %s", p, kubeletPKIDir)
	case !dir:
		f.name = p // ls names a file as it was given
		files = []nodeFile{f}
	case all:
		newest := slices.MaxFunc(files, func(a, b nodeFile) int { return a.modTime.Compare(b.modTime) }).modTime
		oldest := slices.MinFunc(files, func(a, b nodeFile) int { return a.modTime.Compare(b.modTime) }).modTime
		files = append([]nodeFile{{name: ".", mode: "drwxr-xr-x", modTime: newest}, {name: "..", mode: "drwxr-x---", modTime: oldest}}, files...)
	}
	if !long {
		for _, f := range files {
			fmt.Fprintln(w, f.name)
		}
		return nil
	}
	lsLong(w, files, dir, human, now)
	return nil
}

// lsLong writes ls -l's lines (GNU coreutils' format): a total of the 1K blocks the entries use when
// listing a directory, then a line each, the link counts and sizes right-aligned in their columns.
func lsLong(w io.Writer, files []nodeFile, dir, human bool, now time.Time) {
	size := func(n int) string {
		if human {
			return humanLsSize(n)
		}
		return strconv.Itoa(n)
	}
	links := func(f nodeFile) int {
		switch f.name {
		case ".":
			return 2
		case "..":
			return 9 // /var/lib/kubelet: pki, pods, plugins, plugins_registry, pod-resources, device-plugins, checkpoints
		}
		return 1
	}
	total, linkWidth, sizeWidth := 0, 0, 0
	for _, f := range files {
		total += f.blocks()
		linkWidth = max(linkWidth, len(strconv.Itoa(links(f))))
		sizeWidth = max(sizeWidth, len(size(f.size())))
	}
	if dir {
		if human {
			fmt.Fprintf(w, "total %s\n", humanLsSize(total*1024))
		} else {
			fmt.Fprintf(w, "total %d\n", total)
		}
	}
	for _, f := range files {
		name := f.name
		if f.target != "" {
			name += " -> " + f.target
		}
		fmt.Fprintf(w, "%s %*d root root %*s %s %s\n", f.mode, linkWidth, links(f), sizeWidth, size(f.size()), lsTime(f.modTime, now), name)
	}
}

func (f nodeFile) size() int {
	if f.target != "" {
		return len(f.target)
	}
	if f.mode[0] == 'd' {
		return 4096
	}
	return len(f.data)
}

// blocks is how many 1K blocks the entry takes on an ext4 disk: whole 4K blocks for a file or a
// directory, none for a short symlink (its target is kept in the inode).
func (f nodeFile) blocks() int {
	if f.target != "" {
		return 0
	}
	return (f.size() + 4095) / 4096 * 4
}

// humanLsSize is a size as ls -h shows it: bytes below 1K, then one decimal below 10, rounded up
// (1114 is 1.1K).
func humanLsSize(n int) string {
	units := "KMGT"
	if n < 1024 {
		return strconv.Itoa(n)
	}
	v, i := float64(n)/1024, 0
	for v >= 1024 && i < len(units)-1 {
		v /= 1024
		i++
	}
	if v < 10 {
		return strconv.FormatFloat(math.Ceil(v*10)/10, 'f', 1, 64) + units[i:i+1]
	}
	return strconv.Itoa(int(math.Ceil(v))) + units[i:i+1]
}

// lsTime is a modification time as ls -l shows it: the time of day for a file changed in the last
// six months, the year for an older one or one in the future (by the node's clock).
func lsTime(t, now time.Time) string {
	const sixMonths = 31556952 / 2 * time.Second // half of a Gregorian year, as GNU ls counts it
	if t.After(now.Add(-sixMonths)) && !t.After(now) {
		return t.UTC().Format("Jan _2 15:04")
	}
	return t.UTC().Format("Jan _2  2006")
}

// inspectCat runs `cat FILE...` on a node.
func (c *Cluster) inspectCat(w io.Writer, args []string) error {
	node, paths := takeNodeFlag(args)
	if len(paths) == 0 {
		return fmt.Errorf("cat: name a file: cat %s/kubelet.crt --node NODE", kubeletPKIDir)
	}
	files, _, err := c.nodeFiles("cat", node)
	if err != nil {
		return err
	}
	var errs []error
	for _, p := range paths {
		switch f, dir, ok := lookup(files, p, true); {
		case !ok:
			errs = append(errs, missing(fmt.Sprintf("cat: %s: No such file or directory", p), p))
		case dir:
			errs = append(errs, fmt.Errorf("cat: %s: Is a directory", p))
		default:
			w.Write(f.data)
		}
	}
	return errors.Join(errs...)
}

// opensslOptions are the options of openssl x509 that kubesim's nodes know.
const opensslOptions = "-in FILE, -noout, -dates, -startdate, -enddate, -subject, -issuer, -serial, -fingerprint [-sha1|-sha256], -checkend SECONDS"

// inspectOpenssl runs `openssl x509 ARGS` on a node. Like OpenSSL 3's, it prints what each option
// asks for in the order the options came (an option given twice prints once, where it last came),
// then answers -checkend, then, without -noout, the certificate.
func (c *Cluster) inspectOpenssl(w io.Writer, args []string) error {
	node, args := takeNodeFlag(args)
	if len(args) == 0 || args[0] != "x509" {
		return fmt.Errorf("openssl: kubesim's nodes run only openssl x509 (%s)", opensslOptions)
	}
	var (
		in       string
		noout    bool
		checkend *int64
		digest   = "SHA1"
		position = map[string]int{} // an option that prints -> where it came
	)
	usage := func(format string, a ...any) error {
		return fmt.Errorf("x509: "+format+"\nx509: Use -help for summary.", a...)
	}
	for i := 1; i < len(args); i++ {
		opt := args[i]
		if strings.HasPrefix(opt, "--") {
			opt = opt[1:] // OpenSSL takes --noout for -noout
		}
		switch opt {
		case "-in", "-checkend":
			if i+1 == len(args) {
				return usage("Option %s needs a value", opt)
			}
			i++
			if opt == "-in" {
				in = args[i]
				continue
			}
			n, err := strconv.ParseInt(args[i], 10, 64)
			if err != nil {
				return usage("Can't parse %q as a number", args[i])
			}
			checkend = &n
		case "-noout":
			noout = true
		case "-dates":
			position["-startdate"], position["-enddate"] = 2*i, 2*i+1 // where -dates came: -startdate, then -enddate
		case "-startdate", "-enddate", "-subject", "-issuer", "-serial", "-fingerprint":
			position[opt] = 2 * i
		case "-sha1", "-sha256":
			digest = opt[1:]
		default:
			return fmt.Errorf("openssl x509: kubesim's nodes know %s, not %s (-text is left out)", opensslOptions, args[i])
		}
	}
	if in == "" {
		return fmt.Errorf("openssl x509: name the certificate with -in FILE: this shell has no input to read it from")
	}
	files, now, err := c.nodeFiles("openssl", node)
	if err != nil {
		return err
	}
	cert, block, err := readCertificate(files, in)
	if err != nil {
		return err
	}
	prints := make([]string, 0, len(position))
	for opt := range position {
		prints = append(prints, opt)
	}
	slices.SortFunc(prints, func(a, b string) int { return position[a] - position[b] })
	for _, opt := range prints {
		switch opt {
		case "-startdate":
			fmt.Fprintf(w, "notBefore=%s\n", opensslTime(cert.NotBefore))
		case "-enddate":
			fmt.Fprintf(w, "notAfter=%s\n", opensslTime(cert.NotAfter))
		case "-subject":
			fmt.Fprintf(w, "subject=%s\n", opensslName(cert.Subject.Names))
		case "-issuer":
			fmt.Fprintf(w, "issuer=%s\n", opensslName(cert.Issuer.Names))
		case "-serial":
			serial := strings.ToUpper(cert.SerialNumber.Text(16))
			if len(serial)%2 == 1 {
				serial = "0" + serial
			}
			fmt.Fprintf(w, "serial=%s\n", serial)
		case "-fingerprint":
			h := map[string]func() hash.Hash{"SHA1": sha1.New, "sha1": sha1.New, "sha256": sha256.New}[digest]()
			h.Write(cert.Raw)
			fmt.Fprintf(w, "%s Fingerprint=%s\n", digest, colonHex(h.Sum(nil)))
		}
	}
	if checkend != nil {
		// OpenSSL: the certificate will expire if its notAfter is not after now + N.
		if cert.NotAfter.After(now.Add(time.Duration(*checkend) * time.Second)) {
			fmt.Fprintln(w, "Certificate will not expire")
		} else {
			fmt.Fprintln(w, "Certificate will expire")
		}
		return nil
	}
	if !noout {
		w.Write(pem.EncodeToMemory(block))
	}
	return nil
}

// readCertificate reads the first certificate of a file, or says why not as OpenSSL 3 does. Its
// errors are approximate: OpenSSL adds a line of its error queue (a thread id, the source file) that
// differs by build.
func readCertificate(files []nodeFile, p string) (*x509.Certificate, *pem.Block, error) {
	f, dir, ok := lookup(files, p, true)
	if !ok {
		return nil, nil, missing(fmt.Sprintf("Could not open file or uri for loading certificate from %s\n"+
			"error:80000002:system library:file_open:No such file or directory\nUnable to load certificate", p), p)
	}
	for rest := f.data; !dir; {
		var block *pem.Block
		if block, rest = pem.Decode(rest); block == nil {
			break
		}
		if block.Type == "CERTIFICATE" {
			cert, err := x509.ParseCertificate(block.Bytes)
			if err != nil {
				break
			}
			return cert, block, nil
		}
	}
	return nil, nil, fmt.Errorf("Could not read certificate from %s\nUnable to load certificate", p)
}

// opensslTime is a time as OpenSSL prints a certificate's: "Dec  3 03:30:44 2026 GMT".
func opensslTime(t time.Time) string { return t.UTC().Format("Jan _2 15:04:05 2006 GMT") }

// opensslName is a distinguished name as OpenSSL 3 prints it by default, in the certificate's order:
// "O = system:nodes, CN = system:node:node-1" (no escaping: kubesim's names need none).
func opensslName(attrs []pkix.AttributeTypeAndValue) string {
	short := map[string]string{"2.5.4.3": "CN", "2.5.4.6": "C", "2.5.4.7": "L", "2.5.4.8": "ST", "2.5.4.10": "O", "2.5.4.11": "OU"}
	parts := make([]string, 0, len(attrs))
	for _, a := range attrs {
		name, ok := short[a.Type.String()]
		if !ok {
			name = a.Type.String()
		}
		parts = append(parts, fmt.Sprintf("%s = %v", name, a.Value))
	}
	return strings.Join(parts, ", ")
}

// colonHex is a digest as OpenSSL prints a fingerprint: AB:CD:...
func colonHex(b []byte) string {
	parts := make([]string, len(b))
	for i, x := range b {
		parts[i] = fmt.Sprintf("%02X", x)
	}
	return strings.Join(parts, ":")
}
