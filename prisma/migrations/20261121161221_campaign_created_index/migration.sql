-- CreateIndex
CREATE INDEX "Campaign_createdAt_id_idx" ON "Campaign"("createdAt" DESC, "id" DESC);
