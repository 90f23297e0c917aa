package gltf

import (
	"encoding/base64"
	"errors"
	"io/fs"
	"net/url"
	"path"
	"strings"
)

// localName turns a buffer's URI into a name inside the .gltf's directory:
// percent-decoded, with backslashes read as slashes, cleaned. Absolute
// paths, URIs with a scheme and names that climb out of the directory are
// refused.
func localName(uri string) (string, error) {
	name, err := url.PathUnescape(uri)
	if err != nil {
		return "", errors.New("malformed percent-encoding")
	}
	name = strings.ReplaceAll(name, "\\", "/")
	if i := strings.IndexByte(name, ':'); i >= 0 && !strings.Contains(name[:i], "/") {
		return "", errors.New("not a relative file name (only names relative to the .gltf's directory and data: URIs are read)")
	}
	if strings.HasPrefix(name, "/") {
		return "", errors.New("an absolute path (only names relative to the .gltf's directory are read)")
	}
	name = path.Clean(name)
	if name == ".." || strings.HasPrefix(name, "../") {
		return "", errors.New("climbs out of the .gltf's directory (..)")
	}
	if name == "." || !fs.ValidPath(name) {
		return "", errors.New("not a file name")
	}
	return name, nil
}

// base64Decode decodes standard base64, with or without its = padding.
func base64Decode(s string) ([]byte, error) {
	return base64.RawStdEncoding.DecodeString(strings.TrimRight(s, "="))
}
