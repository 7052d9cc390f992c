package dev.switchboard.core.lifecycle;

/**
 * A feature told of a turn's end, inside the transaction that ended it (the lane's finish, a
 * cancel, a turn call), so what it writes commits with the end. The turn tracker calls every one,
 * in {@linkplain #order() order}, and each acts only on the turns that are its business (by their
 * first run's kind, or their thread). docs/architecture.md lists who they are and their order.
 */
public interface TurnEndings {

    /** Where this one comes among the others: lower first. */
    int order();

    void turnEnded(TurnEnded turn);
}
