package orrery.bot;

import io.grpc.ManagedChannel;
import io.grpc.ManagedChannelBuilder;
import io.grpc.Status;
import io.grpc.stub.StreamObserver;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import java.util.Set;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.LinkedBlockingQueue;
import orrery.v1.Arena.Answer;
import orrery.v1.Arena.Decision;
import orrery.v1.Arena.Event;
import orrery.v1.Arena.Join;
import orrery.v1.Arena.MatchEnded;
import orrery.v1.Arena.PlayRequest;
import orrery.v1.Arena.PlayResponse;
import orrery.v1.Arena.Receive;
import orrery.v1.ArenaServiceGrpc;

/**
 * An Orrery bot in Java: plays one seat of any game by legal index (a seeded random pick),
 * answers a rejected decision once more with index 0, and rejoins a dropped stream with the
 * same token and the events it has seen, after a jittered backoff, through the next address of
 * --server. The twin of bots/python and bots/js (docs/protocol.md is the protocol).
 */
public final class Bot {
  // Stream failures worth a rejoin (docs/protocol.md, "Backoff"); a refusal is not retried.
  private static final Set<Status.Code> RETRYABLE = Set.of(Status.Code.UNAVAILABLE, Status.Code.UNKNOWN,
      Status.Code.INTERNAL, Status.Code.DEADLINE_EXCEEDED, Status.Code.RESOURCE_EXHAUSTED);
  private static final Object CLOSED = new Object(); // the server closed the stream without a status

  private final List<String> servers;
  private final String token;
  private final Random rng;
  private final int reconnects;
  private boolean probeReject;
  private long eventsSeen = -1; // -1: no event seen yet, so the join leaves events_seen unset
  private int decisions, rejections, rejoins;

  Bot(List<String> servers, String token, long seed, boolean probeReject, int reconnects) {
    this.servers = servers;
    this.token = token;
    this.rng = new Random(seed);
    this.probeReject = probeReject;
    this.reconnects = reconnects;
  }

  static void log(String msg) {
    System.err.println("orrery-bot-java: " + msg);
  }

  /** play joins and rejoins until the match ends; it returns the exit code. */
  int play() throws InterruptedException {
    int failures = 0, at = 0;
    long capMs = 50;
    while (true) {
      String addr = servers.get(at);
      ManagedChannel ch = ManagedChannelBuilder.forTarget(addr).usePlaintext().build();
      Object end;
      boolean progressed;
      try {
        int before = decisions;
        long seenBefore = eventsSeen;
        end = stream(ch);
        progressed = decisions > before || eventsSeen > seenBefore;
      } finally {
        ch.shutdownNow();
      }
      if (end instanceof MatchEnded ended) {
        var res = ended.getResult();
        int seat = ended.getSeat();
        String rank = seat < res.getRanksCount() ? String.valueOf(res.getRanks(seat)) : "?";
        log("match " + ended.getMatchId() + " ended (" + res.getReason() + "): seat " + seat + " rank " + rank
            + "; ranks " + res.getRanksList() + ", scores " + res.getScoresList() + ": " + res.getDetail());
        log("decisions " + decisions + ", rejections " + rejections + ", rejoins " + rejoins);
        return 0;
      }
      Status st = end instanceof Throwable t ? Status.fromThrowable(t) : Status.UNAVAILABLE.withDescription("the server closed the stream before the match ended");
      if (!RETRYABLE.contains(st.getCode())) {
        log("the server refused the stream: " + st.getCode() + ": " + st.getDescription());
        return 1;
      }
      if (progressed) {
        failures = 0;
        capMs = 50;
      }
      if (reconnects >= 0 && ++failures > reconnects) {
        log("gave up after " + reconnects + " failed rejoins in a row: " + st.getCode() + ": " + st.getDescription());
        return 1;
      }
      if (st.getCode() == Status.Code.UNAVAILABLE) at = (at + 1) % servers.size();
      long wait = (long) (rng.nextDouble() * capMs); // full jitter below a doubling cap
      capMs = Math.min(5000, capMs * 2);
      log("stream lost (" + st.getCode() + ": " + st.getDescription() + "); rejoining through " + servers.get(at) + " in " + wait + " ms");
      Thread.sleep(wait);
      rejoins++;
    }
  }

  /** stream plays one Play stream; it returns the MatchEnded, the stream's error, or CLOSED. */
  private Object stream(ManagedChannel ch) throws InterruptedException {
    BlockingQueue<Object> inbox = new LinkedBlockingQueue<>();
    StreamObserver<PlayRequest> out = ArenaServiceGrpc.newStub(ch).play(new StreamObserver<PlayResponse>() {
      public void onNext(PlayResponse m) { inbox.add(m); }
      public void onError(Throwable t) { inbox.add(t); }
      public void onCompleted() { inbox.add(CLOSED); }
    });
    Join.Builder join = Join.newBuilder().setToken(token)
        .setReceive(Receive.newBuilder().setOmitText(true).setQuiet(true));
    if (eventsSeen >= 0) join.setEventsSeen(eventsSeen + 1);
    out.onNext(PlayRequest.newBuilder().setJoin(join).build());
    String current = "";
    while (true) {
      Object msg = inbox.take();
      if (!(msg instanceof PlayResponse m)) {
        out.onCompleted();
        return msg;
      }
      switch (m.getMsgCase()) {
        case JOINED -> log("joined match " + m.getJoined().getMatchId() + " (" + m.getJoined().getGame() + ") as seat "
            + m.getJoined().getSeat() + " of " + m.getJoined().getSeats());
        case EVENTS -> see(m.getEvents().getEventsList());
        case DECISION -> {
          Decision d = m.getDecision();
          see(d.getEventsList());
          current = d.getDecisionId();
          decisions++;
          // legal_count is getLegalCount12(): protoc renames it beside the repeated "legal".
          int pick = rng.nextInt(Math.max(1, d.getLegalCount12()));
          if (probeReject) { // out of range on purpose, to show the rejection and the fallback
            probeReject = false;
            pick = d.getLegalCount12();
          }
          out.onNext(answer(d.getDecisionId(), pick));
        }
        case REJECTED -> {
          rejections++;
          var r = m.getRejected();
          log("rejected " + r.getDecisionId() + " (" + r.getCode() + ": " + r.getReason() + ")");
          if (r.getDecisionId().equals(current)) {
            log("falling back to legal[0] for " + current);
            out.onNext(answer(current, 0));
          }
        }
        case ENDED -> {
          out.onCompleted();
          return m.getEnded();
        }
        default -> { } // accepted: the quiet stream sends none; a newer message kind: nothing to do
      }
    }
  }

  private static PlayRequest answer(String decisionId, int index) {
    return PlayRequest.newBuilder().setAnswer(Answer.newBuilder().setDecisionId(decisionId).setLegalIndex(index)).build();
  }

  // see checks the events arrive once each, in order, and remembers the last seq.
  private void see(List<Event> events) {
    for (Event e : events) {
      if (eventsSeen >= 0 && e.getSeq() != eventsSeen + 1) log("event gap: got seq " + e.getSeq() + " after " + eventsSeen);
      eventsSeen = e.getSeq();
    }
  }

  static final String USAGE = """
      usage: orrery-bot-java [--server 127.0.0.1:7070] play [--token T] [--seed N] [--probe-reject] [--reconnects N]
             --server (before or after play) lists the nodes of a cluster as ADDR,ADDR,...
             the token comes from --token or, out of ps, the environment variable ORRERY_TOKEN
      """;

  static int usage(String why) {
    log(why);
    System.err.print(USAGE);
    return 2;
  }

  static int run(String[] args) throws InterruptedException {
    String server = "127.0.0.1:7070", token = System.getenv().getOrDefault("ORRERY_TOKEN", ""), cmd = null;
    long seed = 1;
    int reconnects = 20;
    boolean probe = false;
    for (int i = 0; i < args.length; i++) {
      String a = args[i];
      String flag = a.contains("=") ? a.substring(0, a.indexOf('=')) : a;
      boolean inline = a.contains("=");
      if (flag.equals("--probe-reject")) { probe = true; continue; }
      if (flag.equals("-h") || flag.equals("--help") || flag.equals("help")) { System.out.print(USAGE); return 0; }
      if (!flag.startsWith("-")) {
        if (cmd != null) return usage("unexpected argument " + a);
        cmd = a;
        continue;
      }
      String value;
      if (inline) value = a.substring(a.indexOf('=') + 1);
      else if (i + 1 < args.length) value = args[++i];
      else return usage(flag + " needs a value");
      try {
        switch (flag) {
          case "--server" -> server = value;
          case "--token" -> token = value;
          case "--seed" -> seed = Long.parseLong(value);
          case "--reconnects" -> reconnects = Integer.parseInt(value);
          default -> { return usage("unknown flag " + flag); }
        }
      } catch (NumberFormatException e) {
        return usage(flag + " wants a number, not " + value);
      }
    }
    if (!"play".equals(cmd)) return usage(cmd == null ? "no command" : "unknown command " + cmd);
    if (token.isEmpty()) return usage("a seat token is required: --token T or the environment variable ORRERY_TOKEN");
    List<String> servers = new ArrayList<>();
    for (String s : server.split(",")) if (!s.isBlank()) servers.add(s.trim());
    if (servers.isEmpty()) return usage("--server names no address");
    return new Bot(servers, token, seed, probe, reconnects).play();
  }

  public static void main(String[] args) throws InterruptedException {
    System.exit(run(args));
  }
}
