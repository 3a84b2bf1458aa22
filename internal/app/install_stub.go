package app

import (
	"errors"

	"github.com/flowmem/flowmem/internal/project"
)

// installFromInit is replaced by the install command's implementation.
func (e *env) installFromInit(p project.Dir) (any, error) {
	return nil, errors.New("flowmem install is not available in this build")
}
