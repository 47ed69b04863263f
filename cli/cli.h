/* cli.h — the `slpi` command's subcommands. Each lives in cli/cmd-<name>.c, parses
 * its own options with getopt_long, answers --help, and returns the exit code:
 * 0 ok, 1 a check failed, 2 usage or input error, 3 numerical failure. */
#ifndef SLPI_CLI_H
#define SLPI_CLI_H

typedef struct slpi_output slpi_output;

int slpi_cli_list(int argc, char **argv);
int slpi_cli_run(int argc, char **argv);
int slpi_cli_noise(int argc, char **argv);
int slpi_cli_model(int argc, char **argv);
int slpi_cli_ensemble(int argc, char **argv);
int slpi_cli_converge(int argc, char **argv);
int slpi_cli_mlmc(int argc, char **argv);
int slpi_cli_audit(int argc, char **argv);
int slpi_cli_golden(int argc, char **argv);
int slpi_cli_verify(int argc, char **argv);
int slpi_cli_props(int argc, char **argv);

/* A report's stream (cli/output.c): standard output, or the file path written through
 * core/output.c (a temporary file renamed at close; NULL and a message on failure; the
 * caller has refused, with slpi_output_check_paths, a path that is also an input or
 * another output); closing checks that everything was written (SLPI_EINPUT and a
 * message if not). */
slpi_output *slpi_cli_output_open(const char *cmd, const char *path);
int slpi_cli_output_close(const char *cmd, slpi_output *o);

#endif
