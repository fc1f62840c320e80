package users

import (
	"crypto/rand"
	"crypto/subtle"
	"encoding/base64"
	"fmt"
	"strconv"
	"strings"
	"unicode"
	"unicode/utf8"

	"golang.org/x/crypto/argon2"
	"golang.org/x/text/unicode/norm"

	"svc/internal/errs"
)

// The argon2id parameters of new hashes: OWASP's first recommended configuration (19 MiB,
// 2 passes, 1 lane), about 20-40 ms on one core. One lane because a sign-in should not take
// more than one of the server's cores; the memory is what makes guessing expensive on GPUs.
const (
	ArgonMemoryKiB = 19 * 1024
	ArgonTime      = 2
	ArgonThreads   = 1
	argonSaltLen   = 16
	argonKeyLen    = 32
)

// Password policy (NIST SP 800-63B: length, not composition rules).
const (
	MinPasswordChars = 10
	// MaxPasswordBytes bounds what is hashed; long passphrases fit easily.
	MaxPasswordBytes = 256
)

// Bounds on the parameters of a stored hash, so that a garbled or planted hash cannot make
// a verification allocate gigabytes or spin for minutes.
const (
	maxVerifyMemoryKiB = 256 * 1024
	maxVerifyTime      = 16
	maxVerifyThreads   = 16
)

// argonParams are the cost of one hash.
type argonParams struct {
	memory  uint32 // KiB
	time    uint32
	threads uint8
}

func defaultParams() argonParams {
	return argonParams{memory: ArgonMemoryKiB, time: ArgonTime, threads: ArgonThreads}
}

// HashPassword hashes pw with argon2id at the production cost, as a PHC string:
// $argon2id$v=19$m=19456,t=2,p=1$<salt>$<hash>.
func HashPassword(pw string) (string, error) { return hashPassword(pw, defaultParams()) }

func hashPassword(pw string, p argonParams) (string, error) {
	salt := make([]byte, argonSaltLen)
	if _, err := rand.Read(salt); err != nil {
		return "", fmt.Errorf("password salt: %w", err)
	}
	return hashWithSalt(pw, p, salt), nil
}

// hashWithSalt hashes pw with a given salt: the salt of the e-mail's other users (see
// Service.hashFor).
func hashWithSalt(pw string, p argonParams, salt []byte) string {
	key := argon2.IDKey([]byte(normalize(pw)), salt, p.time, p.memory, p.threads, argonKeyLen)
	return fmt.Sprintf("$argon2id$v=%d$m=%d,t=%d,p=%d$%s$%s", argon2.Version, p.memory, p.time, p.threads,
		base64.RawStdEncoding.EncodeToString(salt), base64.RawStdEncoding.EncodeToString(key))
}

// VerifyPassword reports whether pw matches the PHC string phc, comparing in constant time.
// An unknown algorithm, a garbled string or parameters out of bounds give false.
func VerifyPassword(phc, pw string) bool {
	got, want, ok := argonKey(phc, pw)
	return ok && subtle.ConstantTimeCompare(got, want) == 1
}

// argonKey derives pw's key with the parameters and salt of phc, the one costly step of a
// verification, and returns it with phc's own key to compare it with; ok is false for a
// string that is not a valid hash. Hashes with the same parameters and salt (phcSaltOf)
// take the same derived key, so one derivation checks them all.
func argonKey(phc, pw string) (got, want []byte, ok bool) {
	p, salt, want, ok := parsePHC(phc)
	if !ok {
		return nil, nil, false
	}
	return argon2.IDKey([]byte(normalize(pw)), salt, p.time, p.memory, p.threads, uint32(len(want))), want, true
}

// phcSaltOf is a PHC string without its key: the algorithm, parameters and salt, which
// decide the key a password derives.
func phcSaltOf(phc string) string {
	if i := strings.LastIndexByte(phc, '$'); i > 0 {
		return phc[:i]
	}
	return phc
}

// normalize applies NFKC, so that a password typed on systems that compose accents
// differently (macOS input gives NFD, most others NFC) is the same password.
func normalize(pw string) string { return norm.NFKC.String(pw) }

// parsePHC reads $argon2id$v=19$m=M,t=T,p=P$salt$hash.
func parsePHC(phc string) (p argonParams, salt, key []byte, ok bool) {
	parts := strings.Split(phc, "$")
	if len(parts) != 6 || parts[0] != "" || parts[1] != "argon2id" || parts[2] != "v="+strconv.Itoa(argon2.Version) {
		return p, nil, nil, false
	}
	seen := 0
	for _, kv := range strings.Split(parts[3], ",") {
		k, v, found := strings.Cut(kv, "=")
		n, err := strconv.ParseUint(v, 10, 32)
		if !found || err != nil {
			return p, nil, nil, false
		}
		switch k {
		case "m":
			p.memory, seen = uint32(n), seen|1
		case "t":
			p.time, seen = uint32(n), seen|2
		case "p":
			if n > 255 {
				return p, nil, nil, false
			}
			p.threads, seen = uint8(n), seen|4
		default:
			return p, nil, nil, false
		}
	}
	if seen != 7 || p.time < 1 || p.time > maxVerifyTime || p.threads < 1 || p.threads > maxVerifyThreads ||
		p.memory < 8*uint32(p.threads) || p.memory > maxVerifyMemoryKiB {
		return p, nil, nil, false
	}
	salt, err1 := base64.RawStdEncoding.DecodeString(parts[4])
	key, err2 := base64.RawStdEncoding.DecodeString(parts[5])
	if err1 != nil || err2 != nil || len(salt) < 8 || len(salt) > 64 || len(key) < 16 || len(key) > 64 {
		return p, nil, nil, false
	}
	return p, salt, key, true
}

// ValidatePassword checks a new password against the policy: valid text without control
// characters, at least MinPasswordChars characters and at most MaxPasswordBytes bytes. The
// error is errs.BadRequest with a message for the user; Reason gives its stable code.
func ValidatePassword(pw string) error {
	if len(pw) > MaxPasswordBytes {
		return errs.Wrap(errs.BadRequest, fmt.Sprintf("The password is too long: at most %d bytes.", MaxPasswordBytes),
			ErrPasswordTooLong)
	}
	if !utf8.ValidString(pw) || strings.ContainsFunc(pw, unicode.IsControl) {
		return errs.Wrap(errs.BadRequest, "The password must be plain text without control characters.",
			ErrPasswordInvalid)
	}
	if utf8.RuneCountInString(pw) < MinPasswordChars {
		return errs.Wrap(errs.BadRequest, fmt.Sprintf("The password is too short: at least %d characters.",
			MinPasswordChars), ErrPasswordTooShort)
	}
	return nil
}
