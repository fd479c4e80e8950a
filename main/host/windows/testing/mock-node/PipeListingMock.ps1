# The named-pipe listing collect.ps1 makes (FindFirstFileW/FindNextFileW over \\.\pipe\), for a
# mock node on Linux. collect.ps1 compiles its 'CniDoctor.Pipes.Listing' type only when the type
# does not exist yet; this defines one of that name and signature first (MockWindowsNode.psm1
# loads it before any script runs). Names() lists the folder the test maps as the node's pipe
# namespace and returns every name as it is, as the Win32 calls do; calls are recorded in ::Calls.
#
# NetFrameworkGetFiles() is what .NET Framework 4.x's Directory.GetFiles does with the same folder:
# it checks each name it returns as a path and throws ArgumentException "Illegal characters in
# path." on the first one holding " < > | or a control character (Path.CheckInvalidPathChars, as
# in the dotnet/diagnostics#3104 stack). PowerShell 7 (.NET Core) has no such check, so without
# this the tests could not show why the scripts must not use it.
if ($null -eq ('CniDoctor.Pipes.Listing' -as [type])) {
    Add-Type -TypeDefinition @'
namespace CniDoctor.Pipes {
    public static class Listing {
        public static System.Collections.Generic.List<string> Calls = new System.Collections.Generic.List<string>();

        public static string[] Names(string directory) {
            lock (Calls) { Calls.Add(directory); }
            System.Collections.Generic.List<string> names = new System.Collections.Generic.List<string>();
            foreach (string path in System.IO.Directory.GetFiles(directory)) { names.Add(System.IO.Path.GetFileName(path)); }
            return names.ToArray();
        }

        public static string[] NetFrameworkGetFiles(string directory) {
            string[] names = Names(directory);
            System.Collections.Generic.List<string> paths = new System.Collections.Generic.List<string>();
            foreach (string name in names) {
                foreach (char c in name) {
                    if (c == '"' || c == '<' || c == '>' || c == '|' || c < (char)32) {
                        throw new System.ArgumentException("Illegal characters in path.");
                    }
                }
                paths.Add(directory + name);
            }
            return paths.ToArray();
        }
    }
}
'@
}
