// Package moby4951 reduces moby/moby#4951
// (https://github.com/moby/moby/pull/4951, devmapper: fix a deadlock
// between the global devices lock and a device's own lock).
//
// DeviceSet.DeleteDevice takes the global lock (devices.Lock) and then the
// device's lock (info.lock). Deleting the device calls
// removeDeviceAndWait, which drops the global lock while it waits for the
// device to go away and takes it again, still holding info.lock: that
// goroutine now takes the two locks in the order info.lock, devices.Lock.
// A second DeleteDevice of the same device that takes devices.Lock in that
// window then waits for info.lock: AB-BA deadlock, both goroutines blocked
// for ever.
//
// Upstream fix: every path takes the device's lock before the global one
// (lookup under the global lock, release it, lock the device, take the
// global lock again), so no goroutine holds devices.Lock while waiting
// for info.lock.
package moby4951

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

// DeleteDevice removes the device called hash.
func (devices *DeviceSet) DeleteDevice(hash string) {
	devices.Lock()
	defer devices.Unlock()
	info := devices.infos[hash]
	if info == nil {
		return
	}
	info.lock.Lock()
	defer info.lock.Unlock()
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
