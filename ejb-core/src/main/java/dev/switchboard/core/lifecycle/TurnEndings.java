package dev.switchboard.core.lifecycle;

/**
 * A feature told of a turn's end, inside the transaction that ended it (the lane's finish, a
 * cancel, a turn call), so what it writes commits with the end. The turn tracker calls every one,
 * in {@linkplain #order() order}, and each acts only on the turns that are its business (by their
 * first run's kind, or their thread). In order: chat approvals 100, chat compactions 200, chat
 * checkpoints 300, unfinished-turn notes 400, ingress outcomes 500.
 */
public interface TurnEndings {

    /** Where this one comes among the others: lower first. */
    int order();

    void turnEnded(TurnEnded turn);
}
