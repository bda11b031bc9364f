// Command etcd is the etcd server: etcdmain.Main is what etcd's own main calls.
package main

import (
	"os"

	"go.etcd.io/etcd/server/v3/etcdmain"
)

func main() {
	etcdmain.Main(os.Args)
}
