// Package moby4951fixed is moby4951 with the upstream fix of
// https://github.com/moby/moby/pull/4951: the device's lock is taken
// before the global lock, the order removeDeviceAndWait's re-lock uses,
// so the two locks are always taken in one order.
package moby4951fixed

import (
	"sync"
	"time"
)

// DeviceSet is the devmapper driver's set of devices under one lock.
type DeviceSet struct {
	sync.Mutex
	infos   map[string]*DevInfo
	removed int
}

// DevInfo is one device, with its own lock.
type DevInfo struct {
	lock sync.Mutex
	name string
}

// NewDeviceSet returns a set holding the named devices.
func NewDeviceSet(names ...string) *DeviceSet {
	devices := &DeviceSet{infos: map[string]*DevInfo{}}
	for _, n := range names {
		devices.infos[n] = &DevInfo{name: n}
	}
	return devices
}

func (devices *DeviceSet) lookupDevice(hash string) *DevInfo {
	devices.Lock()
	defer devices.Unlock()
	return devices.infos[hash]
}

// DeleteDevice removes the device called hash.
func (devices *DeviceSet) DeleteDevice(hash string) {
	info := devices.lookupDevice(hash)
	if info == nil {
		return
	}
	info.lock.Lock()
	defer info.lock.Unlock()
	devices.Lock()
	defer devices.Unlock()
	devices.deleteDevice(info)
}

func (devices *DeviceSet) deleteDevice(info *DevInfo) {
	if devices.infos[info.name] == nil {
		return // already removed by an earlier call
	}
	devices.removeDeviceAndWait(info.name)
	delete(devices.infos, info.name)
	devices.removed++
}

// removeDeviceAndWait drops the global lock while the device is torn
// down, as the original does around its wait for the kernel.
func (devices *DeviceSet) removeDeviceAndWait(devname string) {
	devices.Unlock()
	time.Sleep(time.Millisecond)
	devices.Lock()
}

// Removed returns how many devices were removed.
func (devices *DeviceSet) Removed() int {
	devices.Lock()
	defer devices.Unlock()
	return devices.removed
}
