"""hostlist.expand(): the forms utilities/hostlist.h writes and reads
(spec/README.md "hostlist encoding")."""
import unittest

from rqreport import hostlist


class ExpandTest(unittest.TestCase):
    def test_ranges_and_singles(self):
        self.assertEqual(hostlist.expand("node[0-3,7]"), ["node0", "node1", "node2", "node3", "node7"])

    def test_plain_names_and_several_terms(self):
        self.assertEqual(hostlist.expand("foo4,bar[1-2]"), ["foo4", "bar1", "bar2"])
        self.assertEqual(hostlist.expand("a1 b2"), ["a1", "b2"])

    def test_suffix(self):
        self.assertEqual(hostlist.expand("a[1-2]b"), ["a1b", "a2b"])

    def test_zero_padding_follows_the_low_end(self):
        self.assertEqual(hostlist.expand("p[01-03]"), ["p01", "p02", "p03"])
        self.assertEqual(hostlist.expand("node[08-10]"), ["node08", "node09", "node10"])
        self.assertEqual(hostlist.expand("node[8-10]"), ["node8", "node9", "node10"])

    def test_order_is_kept(self):
        self.assertEqual(hostlist.expand("n[5,1-2]"), ["n5", "n1", "n2"])

    def test_empty(self):
        self.assertEqual(hostlist.expand(""), [])

    def test_errors(self):
        for bad in ("n[3-1]", "n[1-", "n]1[", "n[[1]]", "n[a]", "n[]", "n[1]x[2]", "n[1-]"):
            with self.subTest(bad=bad), self.assertRaises(hostlist.HostlistError):
                hostlist.expand(bad)

    def test_too_many_hosts(self):
        with self.assertRaises(hostlist.HostlistError):
            hostlist.expand(f"n[0-{hostlist.MAX_HOSTS}]")

    def test_natural_order(self):
        hosts = ["node10", "node2", "gpu1", "node1"]
        self.assertEqual(sorted(hosts, key=hostlist.natural_key), ["gpu1", "node1", "node2", "node10"])


if __name__ == "__main__":
    unittest.main()
