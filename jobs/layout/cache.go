package layout

import "strings"

// valueCache remembers what the values of one column read as. Columns of
// flags, types and statuses hold a handful of distinct values: up to
// linearMax of them are found by a linear scan, faster than hashing short
// strings; past that a map indexes them. It holds at most maxCache values.
type valueCache[V any] struct {
	keys []string
	vals []V
	m    map[string]int
}

const (
	linearMax = 12
	maxCache  = 4096
)

// get returns what k reads as: the remembered value, else read(k),
// remembered while there is room.
func (c *valueCache[V]) get(k string, read func(string) V) V {
	if i := c.find(k); i >= 0 {
		return c.vals[i]
	}
	v := read(k)
	c.add(k, v)
	return v
}

// find returns the index of k, or -1.
func (c *valueCache[V]) find(k string) int {
	if c.m != nil {
		if i, ok := c.m[k]; ok {
			return i
		}
		return -1
	}
	for i, x := range c.keys {
		if len(x) == len(k) && x == k {
			return i
		}
	}
	return -1
}

// add stores k (a copy: the caller's string may share a whole record) and
// returns its index, or -1 when the cache is full.
func (c *valueCache[V]) add(k string, v V) int {
	if len(c.keys) >= maxCache {
		return -1
	}
	k = strings.Clone(k)
	c.keys = append(c.keys, k)
	c.vals = append(c.vals, v)
	i := len(c.keys) - 1
	switch {
	case c.m != nil:
		c.m[k] = i
	case len(c.keys) > linearMax:
		c.m = make(map[string]int, 2*len(c.keys))
		for j, x := range c.keys {
			c.m[x] = j
		}
	}
	return i
}
